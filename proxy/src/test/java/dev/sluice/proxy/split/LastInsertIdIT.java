package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * LAST_INSERT_ID() is the session's, whatever ran on its connection meanwhile. One backend
 * connection makes every session of the test share it, so each one's inserts overwrite what the
 * connection holds.
 */
@ExtendWith(MariaDbClusterExtension.class)
class LastInsertIdIT {

    private static ProxyServer proxy;

    @BeforeAll
    static void start(MariaDbCluster cluster) throws SQLException {
        try (Connection c = cluster.primary().openAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS sluice_test.insert_ids (id INT AUTO_INCREMENT PRIMARY KEY, v INT)");
        }
        proxy = ProxyFixture.start(ProxyFixture.splitOnOneConnection(cluster));
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void eachSessionReadsItsOwnLastInsertIdAfterOthersInserted() throws SQLException {
        try (Connection a = ProxyFixture.connect(proxy, "sluice_test", ""); Statement sa = a.createStatement();
             Connection b = ProxyFixture.connect(proxy, "sluice_test", ""); Statement sb = b.createStatement()) {
            sa.executeUpdate("INSERT INTO insert_ids (v) VALUES (1)");
            long mine = one(sa, "SELECT LAST_INSERT_ID()");
            sa.execute("DROP TABLE IF EXISTS sluice_test.no_such_table_here");
            sa.executeQuery("SELECT 1").close();
            sb.executeUpdate("INSERT INTO insert_ids (v) VALUES (2)");
            long theirs = one(sb, "SELECT LAST_INSERT_ID()");
            assertThat(theirs).isGreaterThan(mine);
            assertThat(one(sa, "SELECT LAST_INSERT_ID()")).as("a's value, after b's insert on the connection").isEqualTo(mine);
            sb.executeUpdate("INSERT INTO insert_ids (v) VALUES (2)");
            theirs = one(sb, "SELECT LAST_INSERT_ID()");
            // A failed statement is kept for the next one to ask about: LAST_INSERT_ID() is still a's.
            assertThatThrownBy(() -> sa.executeUpdate("INSERT INTO insert_ids (id, v) VALUES (" + mine + ", 9)"))
                    .isInstanceOf(java.sql.SQLIntegrityConstraintViolationException.class);
            assertThat(one(sa, "SELECT LAST_INSERT_ID()")).as("a's value, after its failed insert").isEqualTo(mine);
            assertThat(one(sb, "SELECT LAST_INSERT_ID()")).isEqualTo(theirs);
            assertThat(one(sb, "SELECT LAST_INSERT_ID()")).isEqualTo(theirs);
            try (Connection fresh = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = fresh.createStatement()) {
                assertThat(one(s, "SELECT LAST_INSERT_ID()")).as("a new session has inserted nothing").isZero();
            }
            sa.executeUpdate("UPDATE insert_ids SET v = v + 1 WHERE id = " + mine);
            assertThat(one(sa, "SELECT LAST_INSERT_ID() + 0")).as("an update keeps it").isEqualTo(mine);
        }
    }

    /**
     * A multi-row INSERT whose first row is stored and whose second fails (a duplicate key) answers
     * ERR and reports no id, yet the server's LAST_INSERT_ID() is the first row's from then on. The
     * proxy took the connection's value as unchanged: the session kept its old value, and the next
     * session to ask on that connection took the failed insert's id for its own. Found by the
     * differential test's wire client (seed 1031291411357061558).
     */
    @Test
    void aFailedMultiRowInsertStillGivesItsFirstRowsId() throws SQLException {
        try (Connection a = ProxyFixture.connect(proxy, "sluice_test", ""); Statement sa = a.createStatement()) {
            sa.executeUpdate("INSERT INTO insert_ids (v) VALUES (10)");
            long existing = one(sa, "SELECT LAST_INSERT_ID()");
            assertThatThrownBy(() -> sa.executeUpdate("INSERT INTO insert_ids (id, v) VALUES (NULL, 11), (" + existing
                    + ", 12)")).isInstanceOf(java.sql.SQLIntegrityConstraintViolationException.class);
            sa.executeQuery("SELECT 1").close();
            assertThat(one(sa, "SELECT LAST_INSERT_ID()")).as("the first row's id, as the server has it")
                    .isGreaterThan(existing);
        }
        try (Connection b = ProxyFixture.connect(proxy, "sluice_test", ""); Statement sb = b.createStatement()) {
            sb.executeUpdate("INSERT INTO insert_ids (id, v) VALUES (1000000 + CONNECTION_ID(), 13)");
            assertThat(one(sb, "SELECT LAST_INSERT_ID()")).as("b generated none").isZero();
        }
    }

    /**
     * An ON DUPLICATE KEY UPDATE that updates a row reports the row's id but leaves the
     * connection's LAST_INSERT_ID() as it was: on the shared connection, another session's, while
     * the session's own is what the server would answer on a connection of its own.
     */
    @Test
    void anUpsertThatUpdatesNeverShowsAnotherSessionsId() throws SQLException {
        try (Connection a = ProxyFixture.connect(proxy, "sluice_test", ""); Statement sa = a.createStatement();
             Connection b = ProxyFixture.connect(proxy, "sluice_test", ""); Statement sb = b.createStatement()) {
            sb.executeUpdate("INSERT INTO insert_ids (v) VALUES (4)");
            long existing = one(sb, "SELECT LAST_INSERT_ID()");
            sa.executeUpdate("INSERT INTO insert_ids (v) VALUES (5)");
            long others = one(sa, "SELECT LAST_INSERT_ID()");
            try (Connection c = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO insert_ids (id, v) VALUES (" + existing + ", 6) ON DUPLICATE KEY UPDATE v = v + 1");
                // The server keeps the session's value (none yet), neither a's nor the updated row's.
                assertThat(one(s, "SELECT LAST_INSERT_ID()")).as("not the id session a's insert left on the connection")
                        .isNotEqualTo(others).isNotEqualTo(existing).isZero();
                s.executeUpdate("INSERT INTO insert_ids (v) VALUES (7) ON DUPLICATE KEY UPDATE v = v + 1");
                long generated = one(s, "SELECT LAST_INSERT_ID()");
                assertThat(generated).as("an upsert that inserts generates").isGreaterThan(others);
                s.executeUpdate("INSERT INTO insert_ids (id, v) VALUES (" + existing + ", 6) ON DUPLICATE KEY UPDATE v = v + 1");
                s.executeQuery("SELECT 1").close();
                assertThat(one(s, "SELECT LAST_INSERT_ID()")).as("after an update, asked on its connection before it went")
                        .isEqualTo(generated);
            }
        }
    }

    /**
     * A generated id is known from the insert's text: no literal in it could have given the id, so
     * the connection is not asked (the pool's one connection counts the SELECTs it ran). An id a
     * literal could have given, as a number or as a string, is asked about as before.
     */
    @Test
    void anIdNoLiteralCouldGiveIsKnownWithoutAsking() throws SQLException {
        try (Connection a = ProxyFixture.connect(proxy, "sluice_test", ""); Statement sa = a.createStatement();
             Connection b = ProxyFixture.connect(proxy, "sluice_test", ""); Statement sb = b.createStatement()) {
            long before = selectsRun(sa);
            sa.executeUpdate("INSERT INTO insert_ids (v) VALUES (11)");
            sa.executeQuery("SELECT 1").close();
            sa.executeUpdate("INSERT INTO insert_ids VALUES (NULL, 12), (NULL, 13)");
            sa.executeQuery("SELECT 1").close();
            assertThat(selectsRun(sa) - before).as("SELECTs the connection ran: the client's two, no question").isEqualTo(2);
            sb.executeUpdate("INSERT INTO insert_ids (v) VALUES (14)");
            long generated = one(sa, "SELECT LAST_INSERT_ID()");
            assertThat(generated).as("a's first id of its two-row insert").isLessThan(one(sb, "SELECT LAST_INSERT_ID()"));

            sa.executeUpdate("INSERT INTO insert_ids (id, v) VALUES (" + (generated + 1000) + ", 15)");
            sa.executeQuery("SELECT 1").close();
            sa.executeUpdate("INSERT INTO insert_ids VALUES ('" + (generated + 1001) + "', 16)");
            sa.executeQuery("SELECT 1").close();
            sb.executeUpdate("INSERT INTO insert_ids (v) VALUES (17)");
            assertThat(one(sa, "SELECT LAST_INSERT_ID()")).as("explicit ids, as a number and as a string, change nothing")
                    .isEqualTo(generated);
        }
    }

    /** Com_select of the connection the statement runs on: the pool's only one. */
    private static long selectsRun(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SHOW SESSION STATUS LIKE 'Com_select'")) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(2);
        }
    }

    @Test
    void aResetSessionStartsFromZero() throws SQLException {
        try (Connection a = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = a.createStatement()) {
            s.executeUpdate("INSERT INTO insert_ids (v) VALUES (3)");
            assertThat(one(s, "SELECT LAST_INSERT_ID()")).isPositive();
            a.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).resetServerState();
            assertThat(one(s, "SELECT LAST_INSERT_ID()")).isZero();
        }
    }

    private static long one(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }
}
