package dev.sluice.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.mysql.cj.jdbc.JdbcConnection;
import com.mysql.cj.jdbc.exceptions.MySQLStatementCancelledException;
import dev.sluice.config.BackendConfig;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TimeoutsConfig;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * KILL and CONNECTION_ID() with the ids the proxy greets clients with, in both routing modes, as
 * clients use them: Connector/J's query timeout and Statement.cancel() send {@code KILL QUERY id}
 * on a second connection. Sessions land on different backends (round robin over a primary and two
 * replicas), so the killer and its target rarely share one.
 */
@ExtendWith(MariaDbClusterExtension.class)
class KillIT {

    /** Where a KILLed statement must have ended by; it would sleep 30 s. */
    private static final long PROMPTLY_MS = 10_000;

    private static MariaDbCluster cluster;
    private static final Map<RoutingConfig.Mode, ProxyServer> proxies = new EnumMap<>(RoutingConfig.Mode.class);
    /** Statements that block run here: the common pool may have a single thread on a small machine. */
    private static final ExecutorService clients = Executors.newCachedThreadPool();

    @BeforeAll
    static void start(MariaDbCluster shared) {
        cluster = shared;
        for (RoutingConfig.Mode mode : RoutingConfig.Mode.values()) {
            proxies.put(mode, ProxyFixture.start(ProxyFixture.config(ProxyFixture.backends(cluster))
                    .withRouting(new RoutingConfig(mode, RoutingConfig.Balancer.ROUND_ROBIN))));
        }
    }

    @AfterAll
    static void stop() {
        proxies.values().forEach(ProxyServer::close);
        clients.shutdownNow();
    }

    @AfterEach
    void noPoolSlotIsLeft() {
        proxies.values().forEach(KillIT::awaitPoolsIdle);
    }

    private static Connection connect(RoutingConfig.Mode mode) throws SQLException {
        return ProxyFixture.connect(proxies.get(mode), TestUsers.TEST_SCHEMA, "");
    }

    /** The thread id the proxy greeted the connection with. */
    private static long id(Connection c) {
        return ((JdbcConnection) c).getId();
    }

    private static CompletableFuture<Long> runAsync(Connection c, String sql) {
        return CompletableFuture.supplyAsync(() -> {
            long started = System.nanoTime();
            try (Statement s = c.createStatement()) {
                s.execute(sql);
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            } catch (SQLException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        }, clients);
    }

    /** What {@code statement} failed with, at most {@link #PROMPTLY_MS} from now. */
    private static SQLException failure(CompletableFuture<Long> statement) {
        ExecutionException e = catchThrowableOfType(ExecutionException.class,
                () -> statement.get(PROMPTLY_MS, TimeUnit.MILLISECONDS));
        assertThat(e).as("the statement failed").isNotNull();
        assertThat(e.getCause()).isInstanceOf(SQLException.class);
        return (SQLException) e.getCause();
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static long selectLong(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }

    /** Waits until a backend runs {@code sql}, so a KILL finds it running. */
    private static void awaitRunning(String sql) {
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> running(sql) > 0);
    }

    private static int running(String sql) throws SQLException {
        int count = 0;
        for (MariaDbServer server : cluster.servers()) {
            try (Connection admin = server.openAdmin();
                 PreparedStatement s = admin.prepareStatement(
                         "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO = ?")) {
                s.setString(1, sql);
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    count += rs.getInt(1);
                }
            }
        }
        return count;
    }

    /** Every backend connection the proxy opened is back in its pool, and no session counts on a backend. */
    private static void awaitPoolsIdle(ProxyServer proxy) {
        Awaitility.await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            for (BackendPool pool : proxy.runtime().pools()) {
                assertThat(pool.backend().activeSessions().get()).as("sessions on %s", pool.backend().name()).isZero();
                assertThat(pool.idleCount()).as("idle connections of %s", pool.backend().name())
                        .isEqualTo(pool.backend().openConnections().get());
                assertThat(pool.waiting()).isZero();
            }
        });
    }

    @ParameterizedTest
    @EnumSource(RoutingConfig.Mode.class)
    void killQueryFromASecondConnectionEndsTheStatementWith1317AndTheSessionGoesOn(RoutingConfig.Mode mode)
            throws Exception {
        String sleep = "SELECT SLEEP(30) AS kill_query_" + mode;
        try (Connection target = connect(mode); Connection killer = connect(mode)) {
            CompletableFuture<Long> statement = runAsync(target, sleep);
            awaitRunning(sleep);
            execute(killer, "KILL QUERY " + id(target));
            assertThat(failure(statement).getErrorCode()).isEqualTo(1317);
            assertThat(running(sleep)).isZero();
            assertThat(selectLong(target, "SELECT 41 + 1")).isEqualTo(42);
            assertThat(selectLong(killer, "SELECT 1")).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(RoutingConfig.Mode.class)
    void connectorJsQueryTimeoutEndsTheStatementAfterASecond(RoutingConfig.Mode mode) throws Exception {
        try (Connection c = connect(mode); Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            long started = System.nanoTime();
            assertThatThrownBy(() -> s.executeQuery("SELECT SLEEP(30) AS timeout_" + mode))
                    .isInstanceOf(SQLTimeoutException.class);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isBetween(900L, 5_000L);
            s.setQueryTimeout(0);
            assertThat(selectLong(c, "SELECT 7")).isEqualTo(7);
        }
    }

    @ParameterizedTest
    @EnumSource(RoutingConfig.Mode.class)
    void statementCancelFromAnotherThreadEndsTheStatement(RoutingConfig.Mode mode) throws Exception {
        String sleep = "SELECT SLEEP(30) AS cancel_" + mode;
        try (Connection c = connect(mode); Statement s = c.createStatement()) {
            CompletableFuture<Long> statement = CompletableFuture.supplyAsync(() -> {
                try {
                    s.executeQuery(sleep).close();
                    return 0L;
                } catch (SQLException e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            }, clients);
            awaitRunning(sleep);
            s.cancel();
            // The server's ERR 1317 (MySQLQueryInterruptedException), or Connector/J's own
            // MySQLStatementCancelledException when its cancel flag is seen first: as with a direct connection.
            SQLException e = failure(statement);
            assertThat(e instanceof MySQLStatementCancelledException || e.getErrorCode() == 1317).as(e.toString())
                    .isTrue();
            assertThat(running(sleep)).isZero();
            assertThat(selectLong(c, "SELECT 8")).isEqualTo(8);
        }
    }

    @ParameterizedTest
    @EnumSource(RoutingConfig.Mode.class)
    void killConnectionOfABusySessionKillsItsStatementAndClosesIt(RoutingConfig.Mode mode) throws Exception {
        String sleep = "SELECT SLEEP(30) AS kill_busy_" + mode;
        try (Connection target = connect(mode); Connection killer = connect(mode)) {
            CompletableFuture<Long> statement = runAsync(target, sleep);
            awaitRunning(sleep);
            execute(killer, "KILL CONNECTION " + id(target));
            assertThat(failure(statement).getErrorCode()).isEqualTo(1927);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> running(sleep) == 0);
            assertThat(target.isValid(2)).isFalse();
            assertThat(selectLong(killer, "SELECT 1")).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(RoutingConfig.Mode.class)
    void killOfAnIdleSessionClosesIt(RoutingConfig.Mode mode) throws Exception {
        try (Connection target = connect(mode); Connection killer = connect(mode)) {
            long targetId = id(target);
            execute(killer, "KILL " + targetId);
            assertThat(target.isValid(2)).isFalse();
            Awaitility.await().atMost(Duration.ofSeconds(5))
                    .until(() -> proxies.get(mode).runtime().session(targetId).isEmpty());
        }
    }

    @ParameterizedTest
    @EnumSource(RoutingConfig.Mode.class)
    void killQueryOfAnIdleSessionIsOkAndChangesNothing(RoutingConfig.Mode mode) throws Exception {
        try (Connection target = connect(mode); Connection killer = connect(mode)) {
            execute(killer, "KILL QUERY " + id(target));
            assertThat(selectLong(target, "SELECT 5")).isEqualTo(5);
        }
    }

    @ParameterizedTest
    @EnumSource(RoutingConfig.Mode.class)
    void anIdThatNamesNoSessionIs1094EvenWhereABackendThreadHasIt(RoutingConfig.Mode mode) throws Exception {
        try (Connection admin = cluster.primary().openAdmin(); Connection c = connect(mode)) {
            long backendThread = selectLong(admin, "SELECT CONNECTION_ID()");
            if (proxies.get(mode).runtime().session(backendThread).isPresent()) {
                return; // that id is a session's too: nothing to learn here
            }
            for (String kill : List.of("KILL QUERY ", "KILL ", "kill /* c */ hard connection ")) {
                assertThatThrownBy(() -> execute(c, kill + backendThread))
                        .isInstanceOfSatisfying(SQLException.class, e -> {
                            assertThat(e.getErrorCode()).isEqualTo(1094);
                            assertThat(e.getSQLState()).isEqualTo("HY000");
                            assertThat(e.getMessage()).isEqualTo("Unknown thread id: " + backendThread);
                        });
            }
            assertThat(selectLong(admin, "SELECT 1")).isEqualTo(1);
            assertThat(selectLong(c, "SELECT 1")).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(RoutingConfig.Mode.class)
    void anotherUsersSessionIs1095(RoutingConfig.Mode mode) throws Exception {
        String sleep = "SELECT SLEEP(3) AS not_owner_" + mode;
        try (Connection target = connect(mode);
             Connection other = DriverManager.getConnection(
                     ProxyFixture.url(proxies.get(mode), TestUsers.TEST_SCHEMA, ""), TestUsers.APP2_USER,
                     TestUsers.APP2_PASSWORD)) {
            CompletableFuture<Long> statement = runAsync(target, sleep);
            awaitRunning(sleep);
            for (String kill : List.of("KILL QUERY ", "KILL ")) {
                assertThatThrownBy(() -> execute(other, kill + id(target)))
                        .isInstanceOfSatisfying(SQLException.class, e -> {
                            assertThat(e.getErrorCode()).isEqualTo(1095);
                            assertThat(e.getSQLState()).isEqualTo("HY000");
                            assertThat(e.getMessage()).isEqualTo("You are not owner of thread " + id(target));
                        });
            }
            assertThat(statement.get(10, TimeUnit.SECONDS)).as("the statement ran its course").isGreaterThan(2_500L);
            assertThat(selectLong(target, "SELECT 1")).isEqualTo(1);
        }
    }

    /** What MariaDB 11.4 answers a session that kills itself: the same, through the proxy. */
    @ParameterizedTest
    @EnumSource(RoutingConfig.Mode.class)
    void killingOnesOwnQueryIs1317AndOnesOwnConnection1927(RoutingConfig.Mode mode) throws Exception {
        try (Connection c = connect(mode)) {
            assertThatThrownBy(() -> execute(c, "KILL QUERY " + id(c)))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1317));
            assertThat(selectLong(c, "SELECT 3")).isEqualTo(3);
            assertThatThrownBy(() -> execute(c, "KILL " + id(c)))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1927));
            assertThat(c.isValid(2)).isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(RoutingConfig.Mode.class)
    void connectionIdIsTheHandshakesIdWithTheServersColumnNameAndType(RoutingConfig.Mode mode) throws Exception {
        try (Connection c = connect(mode); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT CONNECTION_ID()")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(id(c));
                assertThat(rs.getMetaData().getColumnLabel(1)).isEqualTo("CONNECTION_ID()");
                assertThat(rs.getObject(1)).isInstanceOf(Long.class);
            }
            assertThat(selectLong(c, "select connection_id() AS me")).isEqualTo(id(c));
            assertThat(selectLong(c, "SELECT COUNT(*) FROM DUAL WHERE CONNECTION_ID() = " + id(c))).isEqualTo(1);
            assertThat(selectLong(c, "SELECT 'CONNECTION_ID()' = 'CONNECTION_ID()'")).isEqualTo(1);
            execute(c, "SET @me = CONNECTION_ID()");
            assertThat(selectLong(c, "SELECT @me")).isEqualTo(id(c));
        }
        try (Connection c = ProxyFixture.connect(proxies.get(mode), TestUsers.TEST_SCHEMA, "useServerPrepStmts=true");
             PreparedStatement p = c.prepareStatement("SELECT CONNECTION_ID(), ?")) {
            p.setInt(1, 1);
            try (ResultSet rs = p.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(id(c));
            }
        }
    }

    /**
     * Split mode with one connection to go round: a statement waiting for it in the pool's queue
     * fails with 1317 at once when killed, instead of running later; and the KILL of the statement
     * holding it gets through although the pool may open no other.
     */
    @Test
    void aStatementWaitingForAConnectionFailsAtOnceWhenKilled() throws Exception {
        BackendConfig base = ProxyFixture.backend(cluster.primary());
        TimeoutsConfig d = TimeoutsConfig.defaults();
        BackendConfig oneConnection = new BackendConfig(base.name(), base.address(), base.role(), 1, 1);
        SluiceConfig config = ProxyFixture.config(List.of(oneConnection))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN))
                .withTimeouts(new TimeoutsConfig(d.connect(), d.handshake(), d.clientIdle(), Duration.ofSeconds(30),
                        d.poolIdle(), d.shutdown(), d.backendRetry()));
        String sleep = "SELECT SLEEP(30) AS holds_the_connection";
        try (ProxyServer proxy = ProxyFixture.start(config);
             Connection holder = ProxyFixture.connect(proxy, TestUsers.TEST_SCHEMA, "");
             Connection waiter = ProxyFixture.connect(proxy, TestUsers.TEST_SCHEMA, "");
             Connection killer = ProxyFixture.connect(proxy, TestUsers.TEST_SCHEMA, "")) {
            CompletableFuture<Long> holding = runAsync(holder, sleep);
            awaitRunning(sleep);
            CompletableFuture<Long> waiting = runAsync(waiter, "SELECT 'waits'");
            BackendPool pool = proxy.runtime().pools().iterator().next();
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> pool.waiting() == 1);

            execute(killer, "KILL QUERY " + id(waiter));
            assertThat(failure(waiting).getErrorCode()).isEqualTo(1317);
            assertThat(pool.waiting()).as("the killed statement left the pool's queue").isZero();
            assertThat(holding).isNotDone();

            execute(killer, "KILL QUERY " + id(holder));
            assertThat(failure(holding).getErrorCode()).isEqualTo(1317);
            // The holder keeps the connection after an error, for a SHOW WARNINGS; its next statement lets it go.
            assertThat(selectLong(holder, "SELECT 3")).isEqualTo(3);
            assertThat(selectLong(waiter, "SELECT 2")).isEqualTo(2);
            holder.close();
            waiter.close();
            killer.close();
            awaitPoolsIdle(proxy);
        }
    }
}
