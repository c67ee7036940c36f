package dev.sluice.proxy.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HealthConfig;
import dev.sluice.config.HostPort;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.ClusterSpec;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code routing.transaction_replay}, against a real MariaDB primary behind the split proxy, with
 * Connector/J: a transaction whose backend connection is killed (KILL CONNECTION of the proxy's
 * thread, or the whole server killed and started again) between statements or during one goes on
 * and commits what the client did, once; a COMMIT whose answer was lost after the server ran it
 * gets 1927 and is not run twice, one that never reached the server runs after the transaction is
 * replayed; a transaction whose replay reads otherwise than the client was answered ends with an
 * error. The primary is reached through a relay that can drop one direction of the traffic.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TransactionReplayIT {

    private static MariaDbCluster cluster;
    private static MariaDbServer primary;
    private static HoldingRelay relay;
    private ProxyServer proxy;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = MariaDbCluster.start(ClusterSpec.builder().replicas(0).build());
        primary = cluster.primary();
        relay = new HoldingRelay(primary.port());
        try (Connection admin = primary.openAdmin(); Statement s = admin.createStatement()) {
            s.execute("CREATE OR REPLACE TABLE sluice_test.replayed (id INT AUTO_INCREMENT PRIMARY KEY,"
                    + " v VARCHAR(20) NOT NULL)");
            s.execute("CREATE OR REPLACE TABLE sluice_test.account (id INT PRIMARY KEY, balance INT NOT NULL)");
        }
    }

    @AfterAll
    static void stopCluster() throws Exception {
        relay.close();
        cluster.close();
    }

    @BeforeEach
    void startProxy() throws SQLException {
        try (Connection admin = primary.openAdmin(); Statement s = admin.createStatement()) {
            s.execute("TRUNCATE TABLE sluice_test.replayed");
            s.execute("DELETE FROM sluice_test.account");
            s.execute("INSERT INTO sluice_test.account VALUES (1, 100), (2, 100), (3, 100)");
        }
        BackendConfig viaRelay = new BackendConfig(primary.name(), new HostPort("127.0.0.1", relay.port()),
                BackendConfig.Role.PRIMARY, 1, 200);
        SluiceConfig config = ProxyFixture.config(List.of(viaRelay))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN)
                        .withTransactionReplay(true, RoutingConfig.DEFAULT_TRANSACTION_REPLAY_MAX_SIZE))
                .withHealth(new HealthConfig(true, Duration.ofMillis(200), Duration.ofMillis(500), 2, 1, Duration.ZERO,
                        Optional.empty(), Optional.empty()));
        proxy = ProxyFixture.start(config.withTimeouts(config.timeouts().withPrimaryWait(Duration.ofSeconds(20))));
    }

    @AfterEach
    void stopProxy() {
        relay.hold(HoldingRelay.Hold.NOTHING);
        proxy.close();
    }

    @Test
    void aTransactionWhoseConnectionIsKilledBetweenStatementsCommitsOnce() throws Exception {
        long first;
        long second;
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            first = insert(s, "one");
            assertThat(count(s, "SELECT COUNT(*) FROM replayed")).isEqualTo(1);
            killTransactionThread();
            second = insert(s, "two");
            c.commit();
        }
        assertThat(rows()).containsExactly(first + ":one", second + ":two");
        assertThat(proxy.runtime().stats().transactionsReplayed()).isEqualTo(1);
    }

    @Test
    void anInsertOfAnIdOfItsOwnIsReplayedWhenTheNextInsertSetsItsOwn() throws Exception {
        long generated;
        long after;
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO replayed (id, v) VALUES (50, 'given')");
            generated = insert(s, "generated");
            killTransactionThread();
            after = insert(s, "after");
            c.commit();
        }
        assertThat(rows()).containsExactly("50:given", generated + ":generated", after + ":after");
        assertThat(List.of(generated, after)).containsExactly(51L, 52L);
    }

    @Test
    void anInsertOfAnIdOfItsOwnLastBeforeTheLossIsNotReplayed() throws Exception {
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO replayed (id, v) VALUES (60, 'given')");
            killTransactionThread();
            assertThatThrownBy(() -> insert(s, "generated")).isInstanceOfSatisfying(SQLException.class, e -> {
                assertThat(e.getErrorCode()).isEqualTo(1927);
                assertThat(e.getMessage()).contains("gave an AUTO_INCREMENT column a value of its own");
            });
            assertThat(c.isValid(5)).as("the session ended").isFalse();
        }
        assertThat(rows()).isEmpty();
    }

    @Test
    void aTransactionWhoseConnectionIsKilledDuringAStatementCommitsOnce() throws Exception {
        long id;
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            id = insert(s, "three");
            CompletableFuture<Integer> update = CompletableFuture.supplyAsync(() -> {
                try {
                    return s.executeUpdate("UPDATE replayed SET v = 'four' WHERE v = 'three' AND SLEEP(1) = 0");
                } catch (SQLException e) {
                    throw new IllegalStateException(e.getErrorCode() + " " + e.getMessage(), e);
                }
            });
            killThreadRunning("UPDATE replayed SET v = 'four'%");
            assertThat(update.get(30, TimeUnit.SECONDS)).as("rows the UPDATE changed, replayed").isEqualTo(1);
            c.commit();
        }
        assertThat(rows()).containsExactly(id + ":four");
        assertThat(proxy.runtime().stats().transactionsReplayed()).isEqualTo(1);
    }

    @Test
    void aTransactionOpenWhileThePrimaryRestartsCommitsOnce() throws Exception {
        long first;
        long second;
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", "socketTimeout=60000");
             Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            first = insert(s, "five");
            s.executeUpdate("UPDATE account SET balance = balance - 10 WHERE id = 1");
            primary.kill();
            primary.start();
            second = insert(s, "six");
            c.commit();
        }
        assertThat(rows()).containsExactly(first + ":five", second + ":six");
        assertThat(balance(1)).isEqualTo(90);
        assertThat(proxy.runtime().stats().transactionsReplayed()).isEqualTo(1);
    }

    @Test
    void aCommitThatRanButWhoseAnswerWasLostGetsAnErrorAndRunsOnce() throws Exception {
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            insert(s, "seven");
            long thread = transactionThread();
            relay.hold(HoldingRelay.Hold.ANSWERS);
            CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> {
                try {
                    c.commit();
                } catch (SQLException e) {
                    throw new IllegalStateException(e.getErrorCode() + " " + e.getMessage(), e);
                }
            });
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> rows().size() == 1);
            killAndAwaitGone(thread);
            relay.cut();
            assertThatThrownBy(() -> commit.get(30, TimeUnit.SECONDS)).hasMessageContaining("1927")
                    .hasMessageContaining("may or may not have run");
        }
        assertThat(rows()).as("committed once, not run again").hasSize(1).allMatch(row -> row.endsWith(":seven"));
        assertThat(proxy.runtime().stats().transactionsReplayed()).isZero();
    }

    @Test
    void aCommitThatNeverReachedTheServerRunsAfterTheReplay() throws Exception {
        long id;
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            id = insert(s, "eight");
            long thread = transactionThread();
            relay.hold(HoldingRelay.Hold.REQUESTS);
            CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> {
                try {
                    c.commit();
                } catch (SQLException e) {
                    throw new IllegalStateException(e.getErrorCode() + " " + e.getMessage(), e);
                }
            });
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> relay.dropped() > 0);
            killAndAwaitGone(thread);
            relay.cut();
            commit.get(30, TimeUnit.SECONDS);
        }
        assertThat(rows()).containsExactly(id + ":eight");
        assertThat(proxy.runtime().stats().lostWritesRetried()).isEqualTo(1);
        assertThat(proxy.runtime().stats().transactionsReplayed()).isEqualTo(1);
    }

    @Test
    void aReplayThatReadsOtherwiseEndsTheSessionAndCommitsNothing() throws Exception {
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.executeUpdate("UPDATE account SET balance = balance + 1 WHERE id = 2");
            assertThat(count(s, "SELECT balance FROM account WHERE id = 1")).isEqualTo(100);
            try (Connection other = primary.openAdmin(); Statement o = other.createStatement()) {
                o.executeUpdate("UPDATE sluice_test.account SET balance = 200 WHERE id = 1");
            }
            killTransactionThread();
            assertThatThrownBy(() -> s.executeUpdate("UPDATE account SET balance = 0 WHERE id = 3"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1927);
                        assertThat(e.getMessage()).contains("could not be replayed")
                                .contains("SELECT balance FROM account WHERE id = 1").contains("answered otherwise");
                    });
            assertThat(c.isValid(5)).as("the session ended").isFalse();
        }
        assertThat(balance(2)).as("the first UPDATE was rolled back").isEqualTo(100);
        assertThat(balance(3)).as("the statement after the loss did not run").isEqualTo(100);
        assertThat(proxy.runtime().stats().transactionReplaysFailed()).isEqualTo(1);
    }

    // ---- helpers ----

    private static long insert(Statement s, String value) throws SQLException {
        s.executeUpdate("INSERT INTO replayed (v) VALUES ('" + value + "')", Statement.RETURN_GENERATED_KEYS);
        try (ResultSet keys = s.getGeneratedKeys()) {
            keys.next();
            return keys.getLong(1);
        }
    }

    private static long count(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Every row of the table, committed, as id:v. */
    private static List<String> rows() throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection admin = primary.openAdmin(); Statement s = admin.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, v FROM sluice_test.replayed ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getLong(1) + ":" + rs.getString(2));
            }
        }
        return rows;
    }

    private static int balance(int id) throws SQLException {
        try (Connection admin = primary.openAdmin(); Statement s = admin.createStatement();
             ResultSet rs = s.executeQuery("SELECT balance FROM sluice_test.account WHERE id = " + id)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /**
     * The server thread of the one open transaction: the proxy's connection the session is on.
     * InnoDB refreshes INNODB_TRX at most every 100 ms, so a look right after the previous test's
     * can still show that test's killed transaction and not this one's: the transactions are
     * joined with the live threads, and looked at again until exactly one is there.
     */
    private static long transactionThread() throws SQLException {
        try (Connection admin = primary.openAdmin(); Statement s = admin.createStatement()) {
            List<Long> threads = new ArrayList<>();
            Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(150)).until(() -> {
                threads.clear();
                try (ResultSet rs = s.executeQuery("SELECT t.trx_mysql_thread_id FROM information_schema.INNODB_TRX t"
                        + " JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id")) {
                    while (rs.next()) {
                        threads.add(rs.getLong(1));
                    }
                }
                return threads.size() == 1;
            });
            return threads.get(0);
        }
    }

    private static void killTransactionThread() throws SQLException {
        killAndAwaitGone(transactionThread());
    }

    private static void killThreadRunning(String infoLike) throws SQLException {
        try (Connection admin = primary.openAdmin(); Statement s = admin.createStatement()) {
            long[] thread = new long[1];
            Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(() -> {
                try (ResultSet rs = s.executeQuery("SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE '"
                        + infoLike.replace("'", "''") + "' AND ID <> CONNECTION_ID()")) {
                    if (rs.next()) {
                        thread[0] = rs.getLong(1);
                        return true;
                    }
                    return false;
                }
            });
            killAndAwaitGone(thread[0]);
        }
    }

    private static void killAndAwaitGone(long thread) throws SQLException {
        try (Connection admin = primary.openAdmin(); Statement s = admin.createStatement()) {
            s.execute("KILL CONNECTION " + thread);
            Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(() -> {
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = "
                        + thread)) {
                    rs.next();
                    return rs.getInt(1) == 0;
                }
            });
        }
    }
}
