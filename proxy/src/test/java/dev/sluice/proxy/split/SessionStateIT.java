package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mysql.cj.jdbc.JdbcConnection;
import dev.sluice.config.RoutingConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Session state in split mode, where each statement may land on another backend connection: every
 * case runs through the proxy and directly against the primary, and must give the same answers.
 */
@ExtendWith(MariaDbClusterExtension.class)
class SessionStateIT {

    private static MariaDbCluster cluster;
    private static ProxyServer proxy;

    /** One scenario: statements on one connection, what they answered. */
    interface Scenario {
        List<Object> run(Connection c) throws SQLException;
    }

    @BeforeAll
    static void start(MariaDbCluster shared) throws SQLException {
        cluster = shared;
        try (Connection c = cluster.primary().openAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS sluice_test.kv (id INT AUTO_INCREMENT PRIMARY KEY,"
                    + " v VARCHAR(64) CHARACTER SET utf8mb4)");
            s.execute("DELETE FROM sluice_test.kv");
            s.execute("INSERT INTO sluice_test.kv (id, v) VALUES (1, 'one'), (2, 'two'), (3, 'three')");
            s.execute("CREATE OR REPLACE PROCEDURE sluice_test.two_results() BEGIN"
                    + " SELECT id FROM sluice_test.kv WHERE id <= 2 ORDER BY id; SELECT COUNT(*) FROM sluice_test.kv; END");
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(10));
        proxy = ProxyFixture.start(ProxyFixture.config(ProxyFixture.backends(cluster))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN)));
    }

    @AfterAll
    static void stop() {
        proxy.close();
    }

    private static Connection viaProxy(String options) throws SQLException {
        return ProxyFixture.connect(proxy, "sluice_test", options);
    }

    private static Connection direct(String options) throws SQLException {
        return DriverManager.getConnection(cluster.primary().jdbcUrl("sluice_test") + "&sslMode=DISABLED"
                + (options.isEmpty() ? "" : "&" + options), TestUsers.APP_USER, TestUsers.APP_PASSWORD);
    }

    private static void sameBothWays(String options, Scenario scenario) throws SQLException {
        List<Object> expected;
        try (Connection c = direct(options)) {
            expected = scenario.run(c);
        }
        List<Object> actual;
        try (Connection c = viaProxy(options)) {
            actual = scenario.run(c);
        }
        assertThat(actual).isEqualTo(expected);
    }

    private static List<Object> rows(Statement s, String sql) throws SQLException {
        List<Object> values = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int i = 1; i <= columns; i++) {
                    values.add(rs.getObject(i));
                }
            }
        }
        return values;
    }

    @Test
    void useThenReads() throws SQLException {
        sameBothWays("", c -> {
            try (Statement s = c.createStatement()) {
                s.execute("USE mysql");
                List<Object> out = new ArrayList<>(rows(s, "SELECT DATABASE()"));
                s.execute("USE sluice_test");
                for (int i = 0; i < 6; i++) {
                    out.addAll(rows(s, "SELECT DATABASE(), v FROM kv WHERE id = 1"));
                }
                return out;
            }
        });
    }

    /** MariaDB's session tracker does not report its option flags; they must follow the session anyway. */
    @Test
    void optionFlagsFollowTheSession() throws SQLException {
        sameBothWays("", c -> {
            try (Statement s = c.createStatement()) {
                s.execute("SET SESSION sql_safe_updates = 1");
                s.execute("SET foreign_key_checks = 0, sql_notes = 0");
                List<Object> out = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    out.addAll(rows(s, "SELECT @@sql_safe_updates, @@foreign_key_checks, @@sql_notes"));
                }
                try {
                    s.executeUpdate("UPDATE kv SET v = v");
                    out.add("updated");
                } catch (SQLException e) {
                    out.add("error " + e.getErrorCode());
                }
                s.execute("SET SESSION sql_safe_updates = DEFAULT, foreign_key_checks = 1");
                out.addAll(rows(s, "SELECT @@sql_safe_updates, @@foreign_key_checks, @@sql_notes"));
                return out;
            }
        });
    }

    /** After DROP DATABASE of the current schema, DATABASE() is NULL until the next USE. */
    @Test
    void droppingTheCurrentSchemaLeavesNone() throws SQLException {
        sameBothWays("", c -> {
            try (Statement s = c.createStatement()) {
                List<Object> out = new ArrayList<>();
                for (int round = 0; round < 2; round++) {
                    s.execute("CREATE SCHEMA IF NOT EXISTS dropped_here");
                    s.execute("USE dropped_here");
                    s.execute("DROP SCHEMA dropped_here");
                    for (int i = 0; i < 4; i++) {
                        out.addAll(rows(s, "SELECT DATABASE(), " + i));
                    }
                    // A reset keeps the (lack of a) schema.
                    c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).resetServerState();
                    for (int i = 0; i < 4; i++) {
                        out.addAll(rows(s, "SELECT DATABASE(), " + i));
                    }
                    s.execute("USE sluice_test");
                    for (int i = 0; i < 4; i++) {
                        out.addAll(rows(s, "SELECT DATABASE(), v FROM kv WHERE id = 1"));
                    }
                }
                return out;
            }
        });
    }

    /** MariaDB reports SET STATEMENT's variables changed, but they hold for that one statement only. */
    @Test
    void setStatementForChangesNothingAfterIt() throws SQLException {
        sameBothWays("", c -> {
            try (Statement s = c.createStatement()) {
                List<Object> out = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    // Connector/J's executeQuery refuses a text that starts with SET.
                    assertThat(s.execute("SET STATEMENT div_precision_increment = 10, max_statement_time = 5 FOR"
                            + " SELECT 1/7, @@max_statement_time")).isTrue();
                    try (ResultSet rs = s.getResultSet()) {
                        assertThat(rs.next()).isTrue();
                        out.add(rs.getString(1) + " " + rs.getString(2));
                    }
                    out.addAll(rows(s, "SELECT 1/7, @@div_precision_increment, @@max_statement_time"));
                    s.execute("SET STATEMENT sql_mode = 'ANSI_QUOTES' FOR UPDATE kv SET v = v WHERE id = 1");
                    out.addAll(rows(s, "SELECT @@sql_mode"));
                }
                return out;
            }
        });
    }

    @Test
    void droppingTheCurrentSchemaThenCreatingAndUsingItAgain() throws SQLException {
        sameBothWays("", c -> {
            try (Statement s = c.createStatement()) {
                List<Object> out = new ArrayList<>();
                for (int round = 0; round < 3; round++) {
                    s.execute("DROP SCHEMA IF EXISTS slapish");
                    s.execute("CREATE SCHEMA slapish");
                    s.execute("USE slapish");
                    s.execute("CREATE TABLE t1 (intcol1 INT(32), charcol1 VARCHAR(128))");
                    s.execute("INSERT INTO t1 VALUES (" + round + ", 'x')");
                    out.addAll(rows(s, "/* sluice:primary */ SELECT intcol1 FROM t1"));
                    out.addAll(rows(s, "SELECT DATABASE()"));
                }
                s.execute("DROP SCHEMA slapish");
                return out;
            }
        });
    }

    @Test
    void setNamesAndNonAsciiRoundTrips() throws SQLException {
        sameBothWays("characterEncoding=utf8", c -> {
            try (Statement s = c.createStatement()) {
                s.execute("SET NAMES utf8mb4 COLLATE utf8mb4_unicode_ci");
                List<Object> out = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    out.addAll(rows(s, "SELECT @@character_set_client, @@collation_connection, 'Grüße, 世界 😀'"));
                }
                return out;
            }
        });
    }

    @Test
    void sqlModeAndTimeZoneFollowReadsToReplicas() throws SQLException {
        sameBothWays("", c -> {
            try (Statement s = c.createStatement()) {
                s.execute("SET SESSION sql_mode = 'ANSI_QUOTES,STRICT_ALL_TABLES'");
                s.execute("SET SESSION time_zone = '+05:30'");
                List<Object> out = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    out.addAll(rows(s, "SELECT @@sql_mode, @@time_zone, CONVERT_TZ('2024-01-01 00:00:00', '+00:00', @@time_zone)"));
                    out.addAll(rows(s, "SELECT \"v\" FROM kv WHERE id = 2"));
                }
                return out;
            }
        });
    }

    @Test
    void userVariablesTemporaryTablesLocksAndLockTables() throws SQLException {
        sameBothWays("", c -> {
            try (Statement s = c.createStatement()) {
                List<Object> out = new ArrayList<>();
                s.execute("SET @x = 41");
                out.addAll(rows(s, "SELECT @x + 1"));
                s.execute("CREATE TEMPORARY TABLE scratch (n INT)");
                s.execute("INSERT INTO scratch VALUES (7)");
                out.addAll(rows(s, "SELECT n FROM scratch"));
                out.addAll(rows(s, "SELECT GET_LOCK('sluice-lock', 1)"));
                out.addAll(rows(s, "SELECT IS_USED_LOCK('sluice-lock') = CONNECTION_ID()"));
                out.addAll(rows(s, "SELECT RELEASE_LOCK('sluice-lock')"));
                s.execute("LOCK TABLES kv READ");
                out.addAll(rows(s, "SELECT COUNT(*) FROM kv"));
                s.execute("UNLOCK TABLES");
                return out;
            }
        });
    }

    @Test
    void lastInsertIdAndFoundRows() throws SQLException {
        sameBothWays("", c -> {
            try (Statement s = c.createStatement()) {
                List<Object> out = new ArrayList<>();
                s.execute("INSERT INTO kv (v) VALUES ('auto')");
                Object id = rows(s, "SELECT LAST_INSERT_ID()").get(0);
                out.add(((Number) id).longValue() > 3);
                out.addAll(rows(s, "SELECT v FROM kv WHERE id = LAST_INSERT_ID()"));
                s.execute("DELETE FROM kv WHERE v = 'auto'");
                out.addAll(rows(s, "SELECT SQL_CALC_FOUND_ROWS id FROM kv ORDER BY id LIMIT 1"));
                out.addAll(rows(s, "SELECT FOUND_ROWS()"));
                return out;
            }
        });
    }

    @Test
    void autocommitOffKeepsEverythingOnThePrimary() throws SQLException {
        sameBothWays("", c -> {
            List<Object> out = new ArrayList<>();
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("INSERT INTO kv (id, v) VALUES (50, 'tx')");
                out.addAll(rows(s, "SELECT v FROM kv WHERE id = 50"));
                c.rollback();
                out.addAll(rows(s, "SELECT COUNT(*) FROM kv WHERE id = 50"));
                c.commit();
            }
            c.setAutoCommit(true);
            return out;
        });
    }

    @Test
    void startTransactionReadOnlyMayRunOnAReplica() throws SQLException {
        try (Connection c = viaProxy(""); Statement s = c.createStatement()) {
            s.execute("START TRANSACTION READ ONLY");
            Object port = rows(s, "SELECT @@port").get(0);
            assertThat(rows(s, "SELECT @@port").get(0)).as("the same backend all through").isEqualTo(port);
            assertThat(rows(s, "SELECT COUNT(*) FROM kv")).isNotEmpty();
            s.execute("COMMIT");
            assertThat(((Number) port).intValue()).isNotEqualTo(cluster.primary().port());
        }
    }

    @Test
    void multiStatementsAndStoredProcedures() throws SQLException {
        sameBothWays("allowMultiQueries=true", c -> {
            List<Object> out = new ArrayList<>();
            try (Statement s = c.createStatement()) {
                boolean result = s.execute("SELECT 1; SELECT v FROM kv WHERE id = 3; SELECT 2");
                do {
                    if (result) {
                        try (ResultSet rs = s.getResultSet()) {
                            while (rs.next()) {
                                out.add(rs.getObject(1));
                            }
                        }
                    }
                    result = s.getMoreResults();
                } while (result || s.getUpdateCount() != -1);
            }
            try (CallableStatement call = c.prepareCall("{CALL two_results()}")) {
                boolean result = call.execute();
                while (result) {
                    try (ResultSet rs = call.getResultSet()) {
                        while (rs.next()) {
                            out.add(rs.getObject(1));
                        }
                    }
                    result = call.getMoreResults();
                }
            }
            return out;
        });
    }

    @Test
    void preparedStatementsExecutedTenThousandTimesAcrossBackends() throws SQLException {
        Set<Integer> ports = new HashSet<>();
        try (Connection c = viaProxy("useServerPrepStmts=true&cachePrepStmts=true");
             PreparedStatement ps = c.prepareStatement("SELECT v, @@port FROM kv WHERE id = ?")) {
            for (int i = 0; i < 10_000; i++) {
                ps.setInt(1, 1 + i % 3);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo(List.of("one", "two", "three").get(i % 3));
                    ports.add(rs.getInt(2));
                }
            }
        }
        assertThat(ports).hasSize(2).doesNotContain(cluster.primary().port());
    }

    @Test
    void aHundredThousandPrepareCloseCyclesKeepPreparedStatementsBounded() throws Exception {
        int threads = 4;
        int cycles = 100_000 / threads;
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<Integer>> runs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                runs.add(pool.submit(() -> {
                    int ok = 0;
                    try (Connection c = viaProxy("useServerPrepStmts=true&cachePrepStmts=false")) {
                        for (int i = 0; i < cycles; i++) {
                            try (PreparedStatement ps = c.prepareStatement("SELECT ? + " + ((i + offset) % 500))) {
                                ps.setInt(1, 1);
                                try (ResultSet rs = ps.executeQuery()) {
                                    rs.next();
                                    ok++;
                                }
                            }
                        }
                    }
                    return ok;
                }));
            }
            long done = 0;
            for (Future<Integer> run : runs) {
                done += run.get(10, TimeUnit.MINUTES);
            }
            assertThat(done).isEqualTo(100_000);
        }
        for (var server : cluster.servers()) {
            assertThat(server.globalStatus("Prepared_stmt_count"))
                    .as("statements still prepared on " + server.name()).isLessThan(1024);
        }
    }

    /** COM_RESET_CONNECTION rolls back what autocommit = 0 left open; nothing may commit it first. */
    @Test
    void resetConnectionRollsBackAnOpenTransaction() throws SQLException {
        sameBothWays("", c -> {
            try (Statement s = c.createStatement()) {
                s.execute("DELETE FROM kv WHERE id = 77");
                c.setAutoCommit(false);
                s.execute("INSERT INTO kv VALUES (77, 'rolled back')");
                c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).resetServerState();
                List<Object> out = new ArrayList<>(rows(s, "SELECT @@autocommit, @@in_transaction"));
                c.setAutoCommit(true);
                out.addAll(rows(s, "/* sluice:primary */ SELECT COUNT(*) FROM kv WHERE id = 77"));
                return out;
            }
        });
    }

    @Test
    void resetConnectionAndChangeUserClearState() throws SQLException {
        try (Connection c = viaProxy(""); Statement s = c.createStatement()) {
            s.execute("SET @kept = 1");
            s.execute("SET SESSION sql_mode = 'ANSI_QUOTES'");
            c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).resetServerState();
            assertThat(rows(s, "SELECT @kept IS NULL, @@sql_mode LIKE '%ANSI_QUOTES%'")).containsExactly(1, 0);
            s.execute("SET SESSION sql_mode = 'ANSI_QUOTES'");
            c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).changeUser(TestUsers.APP2_USER, TestUsers.APP2_PASSWORD);
            try (Statement s2 = c.createStatement()) {
                assertThat(rows(s2, "SELECT CURRENT_USER(), @@sql_mode LIKE '%ANSI_QUOTES%'"))
                        .containsExactly("app2@%", 0);
            }
        }
    }

    /**
     * Connector/J's changeUser asks for the session's current database: once that is dropped, the
     * server refuses the change with 1049 and the session goes on as its old user, reset, where
     * the proxy once answered OK.
     */
    @Test
    void aChangeOfUserToADroppedDatabaseFailsAsOnTheServer() throws SQLException {
        sameBothWays("", c -> {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE IF NOT EXISTS change_user_gone");
            }
            c.setCatalog("change_user_gone");
            try (Statement s = c.createStatement()) {
                s.execute("DROP DATABASE change_user_gone");
                s.execute("SET @before = 1, SESSION group_concat_max_len = 4321");
            }
            List<Object> out = new ArrayList<>();
            try {
                c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).changeUser(TestUsers.APP2_USER, TestUsers.APP2_PASSWORD);
                out.add("changed");
            } catch (SQLException e) {
                out.add(e.getErrorCode() + " " + e.getMessage());
            }
            try (Statement s = c.createStatement()) {
                // The server reset the session before it refused: the variables are gone too, and
                // the character set variables are its globals, not the packet's or the login's.
                out.addAll(rows(s, "SELECT CURRENT_USER(), @before, @@group_concat_max_len, DATABASE()"));
                List<Object> charsets = rows(s, "SELECT @@character_set_client, @@character_set_connection,"
                        + " @@character_set_results, @@collation_connection");
                assertThat(charsets).as("the server's globals").isEqualTo(rows(s, "SELECT @@global.character_set_client,"
                        + " @@global.character_set_connection, @@global.character_set_results, @@global.collation_connection"));
                out.addAll(charsets);
            }
            return out;
        });
    }

    /**
     * The server tells only the connection that drops a database: the proxy's pooled connections
     * that a session left in it still name it, and the change of user must not take one of them
     * as proof that the database is there. Found by the differential test (seed
     * 6811850299849264191, where the proxy's own connections dropped it).
     */
    @Test
    void aChangeOfUserToADatabaseDroppedUnderPooledConnectionsFails() throws SQLException {
        List<List<Object>> outcomes = new ArrayList<>();
        for (boolean proxied : new boolean[] {false, true}) {
            try (Connection c = proxied ? viaProxy("") : direct(""); Connection dropper = direct("")) {
                try (Statement s = c.createStatement()) {
                    s.execute("CREATE DATABASE IF NOT EXISTS change_user_pooled");
                }
                // Connector/J's changeUser names the database setCatalog gave it.
                c.setCatalog("change_user_pooled");
                try (Statement s = c.createStatement()) {
                    s.execute("CREATE TABLE IF NOT EXISTS t (k INT)");
                }
                try (Statement s = dropper.createStatement()) {
                    s.execute("DROP DATABASE change_user_pooled");
                }
                List<Object> out = new ArrayList<>();
                try {
                    c.unwrap(JdbcConnection.class).changeUser(TestUsers.APP_USER, TestUsers.APP_PASSWORD);
                    out.add("changed");
                } catch (SQLException e) {
                    out.add(e.getErrorCode() + " " + e.getMessage());
                }
                try (Statement s = c.createStatement()) {
                    out.addAll(rows(s, "SELECT CURRENT_USER()"));
                }
                outcomes.add(out);
            }
        }
        assertThat(outcomes.get(0)).as("direct").containsExactly("1049 Unknown database 'change_user_pooled'", "app@%");
        assertThat(outcomes.get(1)).as("through the proxy").isEqualTo(outcomes.get(0));
    }

    /**
     * The server answers a refused change a second late and, from the fourth on a connection,
     * refuses each one before any check with 1047 (Unknown command). Found by the differential
     * test (seed -1689786244184177835) once split mode refused changes to a dropped database.
     */
    @Test
    void fromTheFourthRefusedChangeOfUserEachIsAnUnknownCommand() throws SQLException {
        List<List<String>> outcomes = new ArrayList<>();
        for (boolean proxied : new boolean[] {false, true}) {
            try (Connection c = proxied ? viaProxy("") : direct("")) {
                try (Statement s = c.createStatement()) {
                    s.execute("CREATE DATABASE IF NOT EXISTS change_user_limit");
                }
                c.setCatalog("change_user_limit");
                try (Statement s = c.createStatement()) {
                    s.execute("DROP DATABASE change_user_limit");
                }
                List<String> out = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    long start = System.nanoTime();
                    try {
                        c.unwrap(JdbcConnection.class).changeUser(TestUsers.APP_USER, TestUsers.APP_PASSWORD);
                        out.add("changed");
                    } catch (SQLException e) {
                        out.add(e.getErrorCode() + " " + e.getSQLState());
                        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("answered after the pause")
                                .isGreaterThanOrEqualTo(Duration.ofMillis(ChangeUserFlow.REFUSAL_PAUSE_MILLIS));
                    }
                }
                try (Statement s = c.createStatement()) {
                    out.add(String.valueOf(rows(s, "SELECT CURRENT_USER(), DATABASE()")));
                }
                outcomes.add(out);
            }
        }
        assertThat(outcomes.get(0)).as("direct").startsWith("1049 42000", "1049 42000", "1049 42000", "1047 08S01",
                "1047 08S01");
        assertThat(outcomes.get(1)).as("through the proxy").isEqualTo(outcomes.get(0));
    }

    /**
     * Refused, the change leaves the session without the schema it dropped; the proxy keeps the
     * connection that has none, where another session would have left a pooled one in its own.
     */
    @Test
    void aRefusedChangeOfUserLeavesTheSessionWithoutASchema() throws SQLException {
        for (boolean proxied : new boolean[] {false, true}) {
            try (Connection c = proxied ? viaProxy("") : direct(""); Connection other = proxied ? viaProxy("") : direct("")) {
                try (Statement s = c.createStatement()) {
                    s.execute("CREATE DATABASE IF NOT EXISTS change_user_none");
                }
                c.setCatalog("change_user_none");
                try (Statement s = c.createStatement()) {
                    s.execute("DROP DATABASE change_user_none");
                }
                assertThatThrownBy(() -> c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class)
                        .changeUser(TestUsers.APP2_USER, TestUsers.APP2_PASSWORD)).isInstanceOf(SQLException.class);
                try (Statement s = other.createStatement()) {
                    // Takes the connection given back last, if one was, and selects its schema there.
                    assertThat(rows(s, "SELECT DATABASE()")).containsExactly("sluice_test");
                }
                try (Statement s = c.createStatement()) {
                    assertThat(rows(s, "SELECT DATABASE(), CURRENT_USER()")).as(proxied ? "through the proxy" : "direct")
                            .containsExactly(null, "app@%");
                }
            }
        }
    }

    /**
     * A schema the replicas lack (made with sql_log_bin off, or not replicated yet): a read after
     * USE of it finds it on no replica and runs on the primary. It once went from one replica to
     * the other for ever, an event loop spinning, and the client hung.
     */
    @Test
    void aReadInASchemaNoReplicaHasRunsOnThePrimary() throws SQLException {
        try (Connection admin = cluster.primary().openAdmin(); Statement s = admin.createStatement()) {
            s.execute("SET SESSION sql_log_bin = 0");
            s.execute("CREATE DATABASE IF NOT EXISTS only_on_primary");
        }
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", "socketTimeout=15000");
             Statement s = c.createStatement()) {
            s.execute("USE only_on_primary");
            for (int read = 0; read < 4; read++) {
                assertThat(rows(s, "SELECT DATABASE(), CAST(@@port AS CHAR)"))
                        .containsExactly("only_on_primary", String.valueOf(cluster.primary().port()));
            }
        } finally {
            try (Connection admin = cluster.primary().openAdmin(); Statement s = admin.createStatement()) {
                s.execute("SET SESSION sql_log_bin = 0");
                s.execute("DROP DATABASE IF EXISTS only_on_primary");
            }
        }
    }
}
