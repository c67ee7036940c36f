package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A session that read on a replica may still hold that replica's connection when its next
 * statement comes (the read left warnings the next statement may ask for). Whatever holds it, a
 * write must never run there: the replica is read_only and would answer ERR 1290, which a
 * client talking to the primary never sees.
 */
@ExtendWith(MariaDbClusterExtension.class)
class WritesOffReplicasIT {

    private static MariaDbCluster cluster;
    private static ProxyServer proxy;

    @BeforeAll
    static void start(MariaDbCluster shared) throws SQLException {
        cluster = shared;
        try (Connection c = cluster.primary().openAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS sluice_test.off_replicas (id INT AUTO_INCREMENT PRIMARY KEY, v INT)");
            s.execute("CREATE OR REPLACE PROCEDURE sluice_test.off_replicas_add(x INT)"
                    + " BEGIN INSERT INTO off_replicas (v) VALUES (x); END");
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(10));
        proxy = ProxyFixture.start(SplitRoutingIT.splitConfig(cluster));
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void aWriteAfterAReadThatLeftWarningsRunsOnThePrimary() throws SQLException {
        for (int round = 0; round < 5; round++) {
            // A new session each round: the first one pins itself to the primary.
            try (Connection c = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("SELECT 1/0, @@port")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(2)).as("the read ran on a replica").isNotEqualTo(cluster.primary().port());
                }
                // Reads what the last statement's connection holds (a user variable) and pins one.
                s.execute("SELECT @u := CONCAT('round', @v)");
                assertThat(s.executeUpdate("INSERT INTO off_replicas (v) VALUES (" + round + ")")).isEqualTo(1);
                try (ResultSet rs = s.executeQuery("SELECT @@port")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).as("pinned where the user variable was set").isEqualTo(cluster.primary().port());
                }
                s.execute("DELETE FROM off_replicas WHERE v = " + round);
            }
        }
    }

    @Test
    void aWriteAfterAPreparedReadRunsOnThePrimary() throws SQLException {
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", "useServerPrepStmts=true");
             var write = c.prepareStatement("INSERT INTO off_replicas (v) VALUES (?)")) {
            for (int round = 0; round < 5; round++) {
                try (var read = c.prepareStatement("SELECT 1/0, ?")) {
                    read.setInt(1, round);
                    read.executeQuery().close();
                }
                write.setInt(1, 100 + round);
                assertThat(write.executeUpdate()).isEqualTo(1);
            }
        }
    }

    @Test
    void aWriteInAReadOnlyTransactionFailsAsOnThePrimary() throws SQLException {
        String direct = readOnlyTransactionWriteError(DriverManager.getConnection(cluster.primary().jdbcUrl("sluice_test")));
        String proxied = readOnlyTransactionWriteError(ProxyFixture.connect(proxy, "sluice_test", ""));
        assertThat(direct).isEqualTo("1792, then SHOW ERRORS: 1792");
        assertThat(proxied).isEqualTo(direct);
    }

    /**
     * State that outlives a READ ONLY transaction (a user variable, a user lock, PREPARE) moves
     * that transaction to the primary: the session's writes after it run, as they would on a
     * direct connection, where they once got ERR 1290 from the replica it was tied to. So does
     * what may write without the proxy knowing (a CALL, a multi-statement): the primary refuses
     * its writes with 1792, where the replica said 1290. A savepoint set before moves along.
     */
    @Test
    void stateMadeInAReadOnlyTransactionMovesItToThePrimary() throws SQLException {
        String[] makesState = {"SET @made_in_read_only = 1", "CREATE TEMPORARY TABLE made_in_read_only (x INT)",
                "SELECT GET_LOCK('made_in_read_only', 0)", "PREPARE made_in_read_only FROM 'SELECT 1'",
                "CALL off_replicas_add(-5)", "SELECT 1; INSERT INTO off_replicas (v) VALUES (-5)"};
        for (String statement : makesState) {
            String direct = stateInReadOnlyTransaction(DriverManager.getConnection(
                    cluster.primary().jdbcUrl("sluice_test") + "&allowMultiQueries=true"), statement, false);
            String proxied = stateInReadOnlyTransaction(ProxyFixture.connect(proxy, "sluice_test", "allowMultiQueries=true"),
                    statement, true);
            assertThat(proxied).as(statement).isEqualTo(direct);
            assertThat(direct).as(statement).endsWith("the write after COMMIT: 1");
        }
    }

    /** What a session sees around a statement that makes state in START TRANSACTION READ ONLY. */
    private static String stateInReadOnlyTransaction(Connection connection, String statement, boolean proxied)
            throws SQLException {
        try (Connection c = connection; Statement s = c.createStatement()) {
            s.execute("START TRANSACTION READ ONLY");
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*), @@port FROM off_replicas")) {
                assertThat(rs.next()).isTrue();
                if (proxied) {
                    assertThat(rs.getInt(2)).as("the transaction began on a replica").isNotEqualTo(cluster.primary().port());
                }
            }
            s.execute("SAVEPOINT before_state");
            String outcome = statement + ": " + outcome(s, statement);
            outcome += ", rolled back to the savepoint: " + outcome(s, "ROLLBACK TO SAVEPOINT before_state");
            try (ResultSet rs = s.executeQuery("SELECT @@in_transaction, @@port")) {
                assertThat(rs.next()).isTrue();
                outcome += ", in transaction: " + rs.getInt(1);
                if (proxied) {
                    assertThat(rs.getInt(2)).as("the transaction moved to the primary").isEqualTo(cluster.primary().port());
                }
            }
            SQLException refused = catchThrowableOfType(SQLException.class,
                    () -> s.executeUpdate("INSERT INTO off_replicas (v) VALUES (-3)"));
            outcome += ", a write in it: " + (refused == null ? "ok" : refused.getErrorCode());
            s.execute("COMMIT");
            outcome += ", the write after COMMIT: " + s.executeUpdate("INSERT INTO off_replicas (v) VALUES (-3)");
            s.execute("DELETE FROM off_replicas WHERE v = -3");
            return outcome;
        }
    }

    /** ok, or the error code, with the warnings' codes, and moves past every result. */
    private static String outcome(Statement s, String statement) {
        try {
            boolean results = s.execute(statement);
            StringBuilder said = new StringBuilder("ok");
            while (results || s.getUpdateCount() != -1) {
                results = s.getMoreResults();
            }
            for (var w = s.getWarnings(); w != null; w = w.getNextWarning()) {
                said.append(" warning ").append(w.getErrorCode());
            }
            return said.toString();
        } catch (SQLException e) {
            return String.valueOf(e.getErrorCode());
        }
    }

    /** LOCK TABLES commits the READ ONLY transaction first, then locks on the primary. */
    @Test
    void lockTablesInAReadOnlyTransactionLocksOnThePrimary() throws SQLException {
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = c.createStatement()) {
            s.execute("START TRANSACTION READ ONLY");
            s.executeQuery("SELECT COUNT(*) FROM off_replicas").close();
            s.execute("LOCK TABLES off_replicas WRITE");
            assertThat(s.executeUpdate("INSERT INTO off_replicas (v) VALUES (-2)")).isEqualTo(1);
            try (ResultSet rs = s.executeQuery("SELECT @@in_transaction, @@port")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).as("the read only transaction was committed").isZero();
                assertThat(rs.getInt(2)).isEqualTo(cluster.primary().port());
            }
            s.execute("UNLOCK TABLES");
            s.execute("DELETE FROM off_replicas WHERE v = -2");
        }
    }

    /** The error of an INSERT in START TRANSACTION READ ONLY and what SHOW ERRORS says; the transaction then commits. */
    private static String readOnlyTransactionWriteError(Connection connection) throws SQLException {
        try (Connection c = connection; Statement s = c.createStatement()) {
            s.execute("START TRANSACTION READ ONLY");
            s.executeQuery("SELECT COUNT(*) FROM off_replicas").close();
            SQLException refused = catchThrowableOfType(SQLException.class,
                    () -> s.executeUpdate("INSERT INTO off_replicas (v) VALUES (-1)"));
            assertThat((Throwable) refused).as("the write is refused").isNotNull();
            int shown;
            try (ResultSet rs = s.executeQuery("SHOW ERRORS")) {
                assertThat(rs.next()).isTrue();
                shown = rs.getInt("Code");
            }
            try (ResultSet rs = s.executeQuery("SELECT @@in_transaction")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).as("the transaction is still open").isEqualTo(1);
            }
            s.execute("COMMIT");
            return refused.getErrorCode() + ", then SHOW ERRORS: " + shown;
        }
    }
}
