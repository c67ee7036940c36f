package dev.sluice.proxy.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Session mode hands a session's backend connection, reset, to the next session with the same
 * login instead of logging in again. Each case leaves some state behind in one session, and the
 * next session, on the same backend thread, must see what a fresh direct connection sees. One
 * event loop, so that the next session is on the loop where the connection waits.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SessionReuseIT {

    private static final String SCHEMA = "session_reuse_it";
    private static final String THREAD = "SELECT ID FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()";

    private static MariaDbCluster cluster;
    private static ProxyServer proxy;

    @BeforeAll
    static void start(MariaDbCluster shared) throws SQLException {
        cluster = shared;
        try (Connection admin = cluster.primary().openAdmin(); Statement s = admin.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS " + SCHEMA);
            s.execute("GRANT ALL ON " + SCHEMA + ".* TO '" + TestUsers.APP_USER + "'@'%'");
            s.execute("CREATE OR REPLACE TABLE " + SCHEMA + ".t (id INT AUTO_INCREMENT PRIMARY KEY, v INT)");
        }
        proxy = ProxyFixture.start(ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary())))
                .withEventLoops(1));
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    /** {@code client}: the driver's name (mysql: Connector/J, mariadb: MariaDB Connector/J), then any URL options. */
    private static String url(int port, String schema, String client) {
        String driver = client.split("&", 2)[0];
        String options = client.substring(driver.length());
        String tlsOff = driver.equals("mysql") ? "sslMode=DISABLED&allowPublicKeyRetrieval=true" : "sslMode=disable";
        return "jdbc:" + driver + "://127.0.0.1:" + port + "/" + (schema == null ? "" : schema) + "?" + tlsOff
                + "&socketTimeout=60000" + options;
    }

    private static Connection connect(int port, String schema, String driver) throws SQLException {
        return DriverManager.getConnection(url(port, schema, driver), TestUsers.APP_USER, TestUsers.APP_PASSWORD);
    }

    /** The first column of each row, or the error's code: what a client sees of {@code sql}. */
    private static String answer(Connection c, String sql) {
        try (Statement s = c.createStatement(); ResultSet rows = s.executeQuery(sql)) {
            List<String> values = new ArrayList<>();
            while (rows.next()) {
                values.add(rows.getString(1));
            }
            return values.toString();
        } catch (SQLException e) {
            return "error " + e.getErrorCode();
        }
    }

    private static void execute(Connection c, String... statements) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    private static BackendPool pool() {
        return proxy.runtime().pools().iterator().next();
    }

    /**
     * A session through {@code through} that runs {@code setup} and ends; returns once its
     * connection is back in the pool, reset, so that the next session gets it: its backend thread.
     */
    private static String sessionThenParked(ProxyServer through, String driver, String schema, String... setup)
            throws SQLException {
        BackendPool pool = through.runtime().pools().iterator().next();
        String thread;
        int idleBefore;
        try (Connection first = connect(through.port(), schema, driver)) {
            thread = answer(first, THREAD);
            execute(first, setup);
            idleBefore = pool.idleCount();
        }
        Awaitility.await("the connection is parked after its session").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(5)).until(() -> pool.idleCount() > idleBefore);
        return thread;
    }

    /**
     * Leaves state with {@code setup} in a session logged in to {@code schema}, then asks {@code probe}
     * in the next session (logged in without a schema when {@code nextSchema} is null) and on a
     * fresh direct connection: the answers must be the same, and the next session must have run on
     * the first one's backend thread.
     */
    private static void assertNothingLeaks(String driver, String schema, String nextSchema, String probe,
                                           String... setup) throws Exception {
        String thread = sessionThenParked(proxy, driver, schema, setup);
        String expected;
        try (Connection direct = connect(cluster.primary().port(), nextSchema, driver)) {
            expected = answer(direct, probe);
        }
        try (Connection next = connect(proxy.port(), nextSchema, driver)) {
            assertThat(answer(next, THREAD)).as("the next session reuses the backend connection").isEqualTo(thread);
            assertThat(answer(next, probe)).as("%s after %s", probe, String.join("; ", setup)).isEqualTo(expected);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"mysql", "mariadb"})
    void userVariablesDoNotLeak(String driver) throws Exception {
        assertNothingLeaks(driver, SCHEMA, SCHEMA, "SELECT @left_behind", "SET @left_behind = 42");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mysql", "mariadb"})
    void temporaryTablesDoNotLeak(String driver) throws Exception {
        assertNothingLeaks(driver, SCHEMA, SCHEMA, "SELECT * FROM tmp_left",
                "CREATE TEMPORARY TABLE tmp_left (x INT)", "INSERT INTO tmp_left VALUES (1)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mysql", "mariadb"})
    void sessionVariablesDoNotLeak(String driver) throws Exception {
        assertNothingLeaks(driver, SCHEMA, SCHEMA,
                "SELECT CONCAT_WS('|', @@session.sql_mode, @@session.wait_timeout, @@session.time_zone,"
                        + " @@session.group_concat_max_len)",
                "SET SESSION sql_mode = 'ANSI_QUOTES', wait_timeout = 77, time_zone = '+05:00',"
                        + " group_concat_max_len = 5");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mysql", "mariadb"})
    void characterSetsAreTheHandshakes(String driver) throws Exception {
        assertNothingLeaks(driver, SCHEMA, SCHEMA,
                "SELECT CONCAT_WS('|', @@character_set_client, IFNULL(@@character_set_results, 'NULL'),"
                        + " @@character_set_connection, @@collation_connection)",
                "SET NAMES latin1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mysql", "mariadb"})
    void preparedStatementsDoNotLeak(String driver) throws Exception {
        assertNothingLeaks(driver, SCHEMA, SCHEMA, "EXECUTE left_behind", "PREPARE left_behind FROM 'SELECT 1'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mysql", "mariadb"})
    void anOpenTransactionsRowsAndAutocommitOffDoNotLeak(String driver) throws Exception {
        assertNothingLeaks(driver, SCHEMA, SCHEMA,
                "SELECT CONCAT_WS('|', @@autocommit, @@in_transaction, (SELECT COUNT(*) FROM t WHERE v = 99))",
                "SET autocommit = 0", "INSERT INTO t (v) VALUES (99)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mysql", "mariadb"})
    void lastInsertIdDoesNotLeak(String driver) throws Exception {
        assertNothingLeaks(driver, SCHEMA, SCHEMA, "SELECT LAST_INSERT_ID()", "INSERT INTO t (v) VALUES (1)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mysql", "mariadb"})
    void aSchemaSelectedWithUseIsSelectedAgainForTheNextSession(String driver) throws Exception {
        // A proxy of its own: elsewhere a parked connection still on SCHEMA would be preferred to this one.
        try (ProxyServer own = ProxyFixture.start(ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary())))
                .withEventLoops(1))) {
            String thread = sessionThenParked(own, driver, SCHEMA, "USE mysql");
            try (Connection next = connect(own.port(), SCHEMA, driver)) {
                assertThat(answer(next, THREAD)).as("the next session reuses the connection").isEqualTo(thread);
                assertThat(answer(next, "SELECT DATABASE()")).isEqualTo("[" + SCHEMA + "]");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"mysql", "mariadb"})
    void aSchemaSelectedWithUseNeverReachesASessionWithoutOne(String driver) throws Exception {
        String thread;
        try (Connection first = connect(proxy.port(), null, driver)) {
            thread = answer(first, THREAD);
            execute(first, "USE " + SCHEMA);
        }
        try (Connection next = connect(proxy.port(), null, driver)) {
            assertThat(answer(next, "SELECT DATABASE()")).as("as on a direct connection").isEqualTo("[null]");
            assertThat(answer(next, THREAD)).as("a schema cannot be unselected: that connection closed")
                    .isNotEqualTo(thread);
        }
    }

    @Test
    void whatTheLoginSetFromCapabilitiesIsSetAgain() throws Exception {
        // CLIENT_INTERACTIVE: wait_timeout from interactive_timeout; MariaDB Connector/J asks for IGNORE_SPACE.
        assertNothingLeaks("mysql&interactiveClient=true", SCHEMA, SCHEMA, "SELECT @@wait_timeout",
                "SET SESSION interactive_timeout = 5, wait_timeout = 7");
        assertNothingLeaks("mariadb", SCHEMA, SCHEMA, "SELECT @@sql_mode", "SET SESSION sql_mode = ''");
    }

    @Test
    void aSessionAskingForAnotherSchemaGetsIt() throws Exception {
        assertNothingLeaks("mysql", SCHEMA, "mysql", "SELECT DATABASE()", "SELECT 1");
    }

    @Test
    void aSessionWithoutASchemaAfterOneWithAGetsNone() throws Exception {
        // The connection logged in with SCHEMA: only one without it may serve a session without one.
        String thread = sessionThenParked(proxy, "mysql", SCHEMA);
        try (Connection next = connect(proxy.port(), null, "mysql")) {
            assertThat(answer(next, "SELECT DATABASE()")).isEqualTo("[null]");
            assertThat(answer(next, THREAD)).as("a new login: none of the parked ones fits").isNotEqualTo(thread);
        }
    }

    @Test
    void killQueryOfTheProxyIdReachesTheReusedConnection() throws Exception {
        String thread = sessionThenParked(proxy, "mysql", SCHEMA);
        try (Connection target = connect(proxy.port(), SCHEMA, "mysql");
             Connection killer = connect(proxy.port(), SCHEMA, "mysql")) {
            assertThat(answer(target, THREAD)).isEqualTo(thread);
            String proxyId = answer(target, "SELECT CONNECTION_ID()");
            CompletableFuture<String> sleep = CompletableFuture.supplyAsync(() -> answer(target,
                    "SELECT SLEEP(30) AS reused_kill"));
            Awaitility.await("the sleep runs on the backend").atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(10)).until(() -> answer(killer, "SELECT COUNT(*) FROM"
                            + " information_schema.PROCESSLIST WHERE INFO LIKE '%reused_kill' AND ID <> CONNECTION_ID()")
                            .equals("[1]"));
            long started = System.nanoTime();
            execute(killer, "KILL QUERY " + proxyId.substring(1, proxyId.length() - 1));
            assertThat(sleep.get(10, TimeUnit.SECONDS)).isIn("error 1317", "[1]");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(10_000);
            assertThat(answer(target, "SELECT 41 + 1")).isEqualTo("[42]");
        }
    }

    @Test
    void sequentialSessionsLogInFarLessOftenThanTheyConnect() throws Exception {
        int sessions = 30;
        long logins = pool().loginCount();
        long before = serverConnections();
        for (int i = 0; i < sessions; i++) {
            try (Connection c = connect(proxy.port(), SCHEMA, "mysql")) {
                assertThat(answer(c, "SELECT 1")).isEqualTo("[1]");
            }
        }
        long grown = serverConnections() - before - 1;
        assertThat(grown).as("backend logins for %d sessions", sessions).isLessThan(sessions / 3);
        assertThat(pool().loginCount() - logins).isEqualTo(grown);
    }

    @Test
    void withReuseOffEverySessionLogsIn() throws Exception {
        try (ProxyServer off = ProxyFixture.start(ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary())))
                .withEventLoops(1), config -> config.withRouting(config.routing().withReuseBackendConnections(false)))) {
            int sessions = 10;
            long before = serverConnections();
            for (int i = 0; i < sessions; i++) {
                try (Connection c = connect(off.port(), SCHEMA, "mysql")) {
                    assertThat(answer(c, "SELECT 1")).isEqualTo("[1]");
                }
            }
            assertThat(serverConnections() - before - 1).as("one login per session, the count's own too")
                    .isGreaterThanOrEqualTo(sessions);
            assertThat(off.runtime().pools().iterator().next().reusedCount()).isZero();
        }
    }

    /** The server's Connections status counter (every login, the asking one included). */
    private static long serverConnections() throws SQLException {
        try (Connection admin = cluster.primary().openAdmin(); Statement s = admin.createStatement();
             ResultSet rows = s.executeQuery("SHOW GLOBAL STATUS LIKE 'Connections'")) {
            rows.next();
            return rows.getLong(2);
        }
    }
}
