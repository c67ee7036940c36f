package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.sluice.config.RoutingConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a statement leaves for the next one to ask (warnings, FOUND_ROWS(), ROW_COUNT()) must
 * survive whatever the proxy runs on the connection between them. In gtid read-your-writes mode
 * the proxy used to read {@code @@last_gtid} back after every statement it could not prove
 * read-only, which reset all three. Each pair runs straight to the primary and through the proxy.
 */
@ExtendWith(MariaDbClusterExtension.class)
class LastStatementDiagnosticsIT {

    private static MariaDbCluster cluster;
    private static ProxyServer proxy;

    @BeforeAll
    static void start(MariaDbCluster shared) throws SQLException {
        cluster = shared;
        try (Connection c = cluster.primary().openAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS sluice_test.diagnostics (k INT PRIMARY KEY, v VARCHAR(4))");
            s.execute("REPLACE INTO sluice_test.diagnostics VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(10));
        proxy = ProxyFixture.start(ProxyFixture.config(ProxyFixture.backends(cluster))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN,
                        RoutingConfig.ReadYourWrites.GTID, RoutingConfig.DEFAULT_PRIMARY_WINDOW,
                        RoutingConfig.DEFAULT_GTID_WAIT_TIMEOUT, List.of())));
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void foundRowsAfterSqlCalcFoundRows() throws SQLException {
        assertSameAsDirect("SELECT SQL_CALC_FOUND_ROWS k FROM diagnostics ORDER BY k LIMIT 1", "SELECT FOUND_ROWS()");
    }

    @Test
    void warningsOfAWrite() throws SQLException {
        assertSameAsDirect("INSERT IGNORE INTO diagnostics VALUES (1, 'dup')", "SHOW WARNINGS");
        assertSameAsDirect("UPDATE IGNORE diagnostics SET v = 'toolong' WHERE k = 3", "SELECT @@warning_count");
    }

    @Test
    void warningsOfAStatementThatSetsAUserVariable() throws SQLException {
        assertSameAsDirect("SELECT @w := CAST('x' AS UNSIGNED)", "SHOW WARNINGS");
    }

    @Test
    void errorsAndWarningsOfAReadOnAReplica() throws SQLException {
        assertSameAsDirect("SELECT 1 FROM DUAL WHERE", "SHOW ERRORS");
        assertSameAsDirect("SELECT CAST('1x' AS UNSIGNED) FROM diagnostics", "SHOW WARNINGS");
        assertSameAsDirect("SELECT CAST('1x' AS UNSIGNED) FROM diagnostics", "SELECT @@warning_count, @u");
    }

    /**
     * A session that wrote makes a replica wait for that write before its next read there; the
     * wait must come before the read, never between the read and what asks about it.
     */
    @Test
    void warningsOfAReadAfterAWrite() throws SQLException {
        List<String> wrote = List.of("UPDATE diagnostics SET v = v WHERE k = 1");
        assertSameAsDirect(wrote, "SELECT CAST('1x' AS UNSIGNED) FROM diagnostics", "SHOW WARNINGS");
        assertSameAsDirect(wrote, "SELECT CAST('1x' AS UNSIGNED) FROM diagnostics", "SELECT @@warning_count");
    }

    /** SHOW WARNINGS leaves the warnings in place: asked twice (Connector/J's getWarnings() asks too), both see them. */
    @Test
    void warningsAskedTwice() throws SQLException {
        List<String> statements = List.of("SELECT CAST('1x' AS UNSIGNED) FROM diagnostics", "SHOW WARNINGS", "SHOW ERRORS",
                "SHOW WARNINGS", "SELECT @@warning_count");
        List<String> direct = rowsOfEach(DriverManager.getConnection(cluster.primary().jdbcUrl("sluice_test")), statements);
        List<String> proxied = rowsOfEach(ProxyFixture.connect(proxy, "sluice_test", ""), statements);
        assertThat(direct).as("both SHOW WARNINGS show them").filteredOn(row -> row.startsWith("SHOW WARNINGS: 1292")).hasSize(6);
        assertThat(proxied).isEqualTo(direct);
    }

    /**
     * The server clears the diagnostics area only for a statement that opens tables: what a
     * replica's read left stays through reads of variables, SETs and Connector/J's own check
     * before it refuses a write on a read-only connection (SELECT @@session.transaction_read_only).
     */
    @Test
    void diagnosticsStayThroughStatementsThatNameNoTable() throws SQLException {
        List<String> direct = readsThenWarnings(DriverManager.getConnection(cluster.primary().jdbcUrl("sluice_test")));
        List<String> proxied = readsThenWarnings(ProxyFixture.connect(proxy, "sluice_test", ""));
        assertThat(direct).as("the warning stays until a statement opens a table").containsExactly(
                "1292", "1292", "1292 1", "1146", "1146 0", "");
        assertThat(proxied).isEqualTo(direct);
    }

    /**
     * A SET of a user variable names no table, so the server keeps the error before it through
     * it; split mode runs the SET on the primary (the variable stays there), where SHOW WARNINGS
     * and @@error_count must still tell that error, whichever backend raised it.
     */
    @Test
    void errorsStayThroughASetOfAUserVariable() throws SQLException {
        // A read fails on a replica; a statement the proxy cannot parse fails on the primary.
        for (String failing : List.of("SELECT * FROM diagnostics_missing", "SELEC 1")) {
            for (String question : List.of("SHOW WARNINGS", "SHOW ERRORS", "SELECT @@error_count, @@warning_count")) {
                List<String> before = List.of();
                List<String> direct = run(DriverManager.getConnection(cluster.primary().jdbcUrl("sluice_test")), before,
                        failing, "SET @v = 1", question);
                List<String> proxied = run(ProxyFixture.connect(proxy, "sluice_test", ""), before,
                        failing, "SET @v = 1", question);
                assertThat(direct).as("the error stays on the server").hasSize(2).element(1).asString().contains("1");
                assertThat(proxied).as("%s, then %s", failing, question).isEqualTo(direct);
            }
        }
    }

    /** The warnings another session left on a pooled connection are not a new session's. */
    @Test
    void aSessionNeverSeesAnotherSessionsWarnings() throws SQLException {
        // Sessions open together each keep a connection of their own for their warning: every
        // connection in the primary's pool ends up with one.
        List<Connection> writers = new ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) {
                Connection c = ProxyFixture.connect(proxy, "sluice_test", "");
                writers.add(c);
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("INSERT IGNORE INTO diagnostics VALUES (1, 'dup')");
                    assertThat(warningCodes(s)).as("its own warning").isEqualTo("1062");
                }
            }
        } finally {
            for (Connection c : writers) {
                c.close();
            }
        }
        List<String> seen = new ArrayList<>();
        for (int round = 0; round < 8; round++) {
            try (Connection c = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = c.createStatement()) {
                if (round % 2 == 1) {
                    // Names no table: it leaves the diagnostics area of the pooled connection it takes as it is.
                    s.execute("SET @mine = " + round);
                }
                seen.add(warningCodes(s) + "|" + counts(s, "SELECT @@warning_count"));
            }
        }
        assertThat(seen).containsOnly("|0");
    }

    private static List<String> readsThenWarnings(Connection connection) throws SQLException {
        try (Connection c = connection; Statement s = c.createStatement()) {
            List<String> seen = new ArrayList<>();
            s.executeQuery("SELECT CAST('1x' AS UNSIGNED) FROM diagnostics WHERE k = 1").close();
            s.executeQuery("SELECT @@port, 1 + 1 FROM DUAL").close();
            seen.add(warningCodes(s));
            s.execute("SET SESSION sql_select_limit = 100");
            seen.add(warningCodes(s));
            c.setReadOnly(true);
            assertThat((Throwable) catchThrowableOfType(SQLException.class,
                    () -> s.executeUpdate("UPDATE diagnostics SET v = v"))).as("refused by the driver").isNotNull();
            seen.add(warningCodes(s) + " " + counts(s, "SELECT @@warning_count"));
            try {
                s.executeQuery("SELECT * FROM diagnostics_missing").close();
            } catch (SQLException e) {
                s.executeQuery("SELECT @@session.transaction_read_only").close();
                seen.add(warningCodes(s));
                seen.add(warningCodes(s) + " " + counts(s, "SELECT @@warning_count - @@error_count"));
            }
            s.executeQuery("SELECT k FROM diagnostics").close();
            seen.add(warningCodes(s));
            return seen;
        }
    }

    private static String warningCodes(Statement s) throws SQLException {
        StringBuilder codes = new StringBuilder();
        try (ResultSet rs = s.executeQuery("SHOW WARNINGS")) {
            while (rs.next()) {
                codes.append(codes.isEmpty() ? "" : ",").append(rs.getInt("Code"));
            }
        }
        return codes.toString();
    }

    private static String counts(Statement s, String query) throws SQLException {
        try (ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Each statement's rows, one after the other, on a fresh session. */
    private static List<String> rowsOfEach(Connection connection, List<String> statements) throws SQLException {
        try (Connection c = connection; Statement s = c.createStatement()) {
            List<String> rows = new ArrayList<>();
            for (String statement : statements) {
                try (ResultSet rs = s.executeQuery(statement)) {
                    while (rs.next()) {
                        rows.add(statement + ": " + rs.getString(rs.getMetaData().getColumnCount() > 1 ? 2 : 1));
                    }
                }
            }
            return rows;
        }
    }

    @Test
    void rowCountOfAnUpdate() throws SQLException {
        assertSameAsDirect("UPDATE diagnostics SET v = v WHERE k <= 2", "SELECT ROW_COUNT()");
        assertSameAsDirect("DELETE FROM diagnostics WHERE k = 99", "SELECT ROW_COUNT()");
    }

    /**
     * SET NAMES sets a collation the connection may already have, which the server then does not
     * report: the variables replayed before the next statement must not be replayed again before
     * the one after it, where they would reset ROW_COUNT().
     */
    @Test
    void rowCountAfterSetNamesOnAPinnedSession() throws SQLException {
        for (String names : List.of("SET NAMES utf8mb4 COLLATE utf8mb4_general_ci", "SET NAMES utf8mb4",
                "SET collation_connection = 'utf8mb4_general_ci'")) {
            List<String> before = List.of(names, "SELECT GET_LOCK('diagnostics', 1)");
            assertSameAsDirect(before, "REPLACE INTO diagnostics VALUES (2, 'b')", "SELECT ROW_COUNT()");
            assertSameAsDirect(before, "UPDATE diagnostics SET v = 'b' WHERE k <= 3", "SELECT ROW_COUNT()");
        }
    }

    /**
     * GET DIAGNOSTICS into user variables must run on the primary (the variables stay there for the
     * session's writes), yet read what the read before it left on a replica's connection.
     */
    @Test
    void diagnosticsIntoUserVariablesAfterAReadThatFailed() throws SQLException {
        // A read that names no table in between (Connector/J's check before it refuses a write on
        // a read-only connection) leaves the error in place.
        for (String between : List.of("", "SELECT @@session.transaction_read_only", "SET @v = 1")) {
            List<String> direct = errorThenDiagnostics(DriverManager.getConnection(cluster.primary().jdbcUrl("sluice_test")),
                    between);
            List<String> proxied = errorThenDiagnostics(ProxyFixture.connect(proxy, "sluice_test", ""), between);
            assertThat(direct).containsExactly("error 1146", "1146 | 42S02 | Table 'sluice_test.diagnostics_missing' doesn't exist",
                    "1");
            assertThat(proxied).as("with %s in between", between).isEqualTo(direct);
        }
    }

    private static List<String> errorThenDiagnostics(Connection connection, String between) throws SQLException {
        try (Connection c = connection; Statement s = c.createStatement()) {
            List<String> rows = new ArrayList<>();
            try {
                s.executeQuery("SELECT * FROM diagnostics_missing").close();
            } catch (SQLException e) {
                rows.add("error " + e.getErrorCode());
            }
            if (!between.isEmpty()) {
                s.execute(between);
            }
            s.execute("GET DIAGNOSTICS CONDITION 1 @errno = MYSQL_ERRNO, @state = RETURNED_SQLSTATE, @text = MESSAGE_TEXT");
            try (ResultSet rs = s.executeQuery("SELECT @errno, @state, @text")) {
                rs.next();
                rows.add(rs.getString(1) + " | " + rs.getString(2) + " | " + rs.getString(3));
            }
            rows.add(String.valueOf(s.executeUpdate("UPDATE diagnostics SET v = v WHERE k = @errno - 1145")));
            return rows;
        }
    }

    private static void assertSameAsDirect(String first, String second) throws SQLException {
        assertSameAsDirect(List.of(), first, second);
    }

    private static void assertSameAsDirect(List<String> before, String first, String second) throws SQLException {
        List<String> direct = run(DriverManager.getConnection(cluster.primary().jdbcUrl("sluice_test")), before, first, second);
        List<String> proxied = run(ProxyFixture.connect(proxy, "sluice_test", ""), before, first, second);
        assertThat(proxied).as("%s, then %s", first, second).isEqualTo(direct);
    }

    /**
     * On a fresh session, after {@code before}: the error of {@code first}, if any, and the rows of
     * {@code second} run right after it.
     */
    private static List<String> run(Connection connection, List<String> before, String first, String second)
            throws SQLException {
        return run(connection, before, first, "", second);
    }

    /** As above, with {@code between} (unless empty) run after {@code first} and before {@code second}. */
    private static List<String> run(Connection connection, List<String> before, String first, String between,
                                    String second) throws SQLException {
        try (Connection c = connection; Statement s = c.createStatement()) {
            for (String statement : before) {
                s.execute(statement);
            }
            List<String> rows = new ArrayList<>();
            try {
                s.execute(first);
            } catch (SQLException e) {
                rows.add("error " + e.getErrorCode());
            }
            if (!between.isEmpty()) {
                s.execute(between);
            }
            try (ResultSet rs = s.executeQuery(second)) {
                int columns = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    StringBuilder row = new StringBuilder();
                    for (int i = 1; i <= columns; i++) {
                        row.append(i > 1 ? " | " : "").append(rs.getString(i));
                    }
                    rows.add(row.toString());
                }
            }
            assertThat(rows).as("%s returns a row", second).isNotEmpty();
            return rows;
        }
    }
}
