package dev.sluice.proxy.ha;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.BackendTlsConfig;
import dev.sluice.config.ClientTlsConfig;
import dev.sluice.config.HostPort;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.RoutingConfig.ReadYourWritesScope;
import dev.sluice.config.TlsConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.gtid.GtidSet;
import dev.sluice.testkit.TestUsers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Network;
import org.testcontainers.mysql.MySQLContainer;

/**
 * Read-your-writes on MySQL 8.4 backends (Testcontainers): a GTID primary and a replica that
 * applies each transaction a second late (SOURCE_DELAY = 1). The proxy turns on
 * session_track_gtids, reads the GTIDs of each write from its OK, and waits on the replica with
 * WAIT_FOR_EXECUTED_GTID_SET before a read: the read runs there (its @@server_id says so) and
 * sees the write. Without a Docker engine every test is reported as skipped, with the reason.
 */
class MySqlCausalReadsIT {

    private static final String IMAGE = "mysql:8.4";
    private static final int PAIRS = 5;
    private static final int PRIMARY_ID = 1;
    private static final int REPLICA_ID = 2;

    private static boolean dockerAvailable;
    private static Network network;
    private static MySQLContainer primary;
    private static MySQLContainer replica;

    @BeforeAll
    static void startReplication() throws Exception {
        dockerAvailable = DockerClientFactory.instance().isDockerAvailable();
        if (!dockerAvailable) {
            System.err.println("MySqlCausalReadsIT: skipped: no Docker engine (Testcontainers could not find one)");
            return;
        }
        network = Network.newNetwork();
        primary = server("primary", PRIMARY_ID);
        replica = server("replica", REPLICA_ID);
        primary.start();
        replica.start();
        // The images' own setup (the test account and schema) ran on each: neither binlog should replay elsewhere.
        run(primary, "RESET BINARY LOGS AND GTIDS");
        run(replica, "RESET BINARY LOGS AND GTIDS",
                "CHANGE REPLICATION SOURCE TO SOURCE_HOST = 'primary', SOURCE_PORT = 3306, SOURCE_USER = 'root',"
                        + " SOURCE_PASSWORD = '" + primary.getPassword() + "', SOURCE_AUTO_POSITION = 1,"
                        + " GET_SOURCE_PUBLIC_KEY = 1, SOURCE_DELAY = 1",
                "START REPLICA");
        List<String> setup = new ArrayList<>(List.of("CREATE DATABASE sluice_test",
                "CREATE TABLE sluice_test.causal (id INT PRIMARY KEY)"));
        for (String user : List.of(TestUsers.APP_USER, TestUsers.APP2_USER)) {
            setup.add("CREATE USER '" + user + "'@'%' IDENTIFIED BY '" + password(user) + "'");
            setup.add("GRANT ALL ON sluice_test.* TO '" + user + "'@'%'");
        }
        run(primary, setup.toArray(String[]::new));
        awaitOnReplica("SELECT COUNT(*) FROM mysql.user WHERE user = '" + TestUsers.APP2_USER + "'", Duration.ofSeconds(60));
    }

    /**
     * The assumption sits here rather than in {@link #startReplication}: Maven's JUnit provider does
     * not report a class skipped from @BeforeAll at all, so the skip would pass unseen.
     */
    @BeforeEach
    void requireDocker() {
        Assumptions.assumeTrue(dockerAvailable, "skipped: no Docker engine (Testcontainers could not find one)");
    }

    @AfterAll
    static void stopReplication() {
        if (replica != null) {
            replica.stop();
        }
        if (primary != null) {
            primary.stop();
        }
        if (network != null) {
            network.close();
        }
    }

    private static MySQLContainer server(String alias, int serverId) {
        MySQLContainer server = new MySQLContainer(IMAGE);
        server.withNetwork(network).withNetworkAliases(alias)
                .withCommand("--server-id=" + serverId, "--gtid-mode=ON", "--enforce-gtid-consistency=ON");
        return server;
    }

    private static String password(String user) {
        return user.equals(TestUsers.APP_USER) ? TestUsers.APP_PASSWORD : TestUsers.APP2_PASSWORD;
    }

    private static Connection root(MySQLContainer server) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://" + server.getHost() + ":" + server.getMappedPort(3306)
                + "/?sslMode=DISABLED&allowPublicKeyRetrieval=true", "root", server.getPassword());
    }

    private static void run(MySQLContainer server, String... statements) throws SQLException {
        try (Connection c = root(server); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    private static String queryOne(MySQLContainer server, String sql) throws SQLException {
        try (Connection c = root(server); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static void awaitOnReplica(String countQuery, Duration limit) throws Exception {
        try {
            Awaitility.await().atMost(limit).pollInterval(Duration.ofMillis(200))
                    .until(() -> "1".equals(queryOne(replica, countQuery)));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("the replica did not replicate the setup within " + limit + "; its status: "
                    + queryOne(replica, "SELECT LAST_ERROR_MESSAGE FROM performance_schema.replication_applier_status_by_worker"), e);
        }
    }

    private static ProxyServer proxy(RoutingConfig.ReadYourWrites mode, ReadYourWritesScope scope, Duration waitTimeout) {
        List<BackendConfig> backends = List.of(
                new BackendConfig("primary", new HostPort(primary.getHost(), primary.getMappedPort(3306)),
                        BackendConfig.Role.PRIMARY, 1, 50),
                new BackendConfig("replica", new HostPort(replica.getHost(), replica.getMappedPort(3306)),
                        BackendConfig.Role.REPLICA, 1, 50));
        RoutingConfig routing = new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN,
                mode, RoutingConfig.DEFAULT_PRIMARY_WINDOW, waitTimeout, List.of())
                .withReadYourWrites(mode, scope);
        // MySQL 8.4's caching_sha2_password sends a first login's password in full: RSA with the server's key.
        TlsConfig tls = new TlsConfig(ClientTlsConfig.defaults(),
                new BackendTlsConfig(false, false, Optional.empty(), Optional.empty(), true));
        return ProxyFixture.start(ProxyFixture.config(backends).withRouting(routing).withTls(tls));
    }

    private static Connection connect(ProxyServer proxy, String user) throws SQLException {
        return DriverManager.getConnection(ProxyFixture.url(proxy, "sluice_test", ""), user, password(user));
    }

    /** One read after one write: which server answered, and whether it saw the row. */
    private record Read(int serverId, boolean sawWrite) {
    }

    /** Writes row after row on {@code writer} and reads each back at once on {@code reader}. */
    private static List<Read> writeHereReadThere(Connection writer, Connection reader, int firstId) throws SQLException {
        List<Read> reads = new ArrayList<>();
        try (PreparedStatement write = writer.prepareStatement("INSERT INTO causal VALUES (?)");
             PreparedStatement read = reader.prepareStatement("SELECT COUNT(*), @@server_id FROM causal WHERE id = ?")) {
            for (int i = 0; i < PAIRS; i++) {
                write.setInt(1, firstId + i);
                write.executeUpdate();
                read.setInt(1, firstId + i);
                try (ResultSet rs = read.executeQuery()) {
                    rs.next();
                    reads.add(new Read(rs.getInt(2), rs.getInt(1) == 1));
                }
            }
        }
        return reads;
    }

    /** What the proxy sends, straight to the servers: the set as it writes it, 0 when there, 1 on timeout. */
    @Test
    void waitForExecutedGtidSetTakesTheSetAsTheProxyWritesIt() throws Exception {
        run(primary, "INSERT INTO sluice_test.causal VALUES (100)");
        GtidSet executed = GtidSet.parse(queryOne(primary, "SELECT @@gtid_executed"));
        assertThat(executed.isEmpty()).as("the primary runs with GTIDs").isFalse();

        assertThat(queryOne(replica, executed.waitStatement(10.0))).isEqualTo("0");
        String beyond = executed.sources().get(0) + ":1-999999999";
        assertThat(queryOne(replica, GtidSet.parse(beyond).waitStatement(0.2))).isEqualTo("1");
    }

    @Test
    void aSessionReadsItsWritesOnTheReplicaOnceItHasThem() throws Exception {
        try (ProxyServer proxy = proxy(RoutingConfig.ReadYourWrites.GTID, ReadYourWritesScope.SESSION, Duration.ofSeconds(5));
             Connection session = connect(proxy, TestUsers.APP_USER)) {
            assertThat(writeHereReadThere(session, session, 1_000))
                    .as("every read waited on the replica and saw its write")
                    .containsOnly(new Read(REPLICA_ID, true));
        }
    }

    @Test
    void scopeUserReadsTheUsersWritesOnAnyConnection() throws Exception {
        try (ProxyServer proxy = proxy(RoutingConfig.ReadYourWrites.GTID, ReadYourWritesScope.USER, Duration.ofSeconds(5));
             Connection writer = connect(proxy, TestUsers.APP_USER);
             Connection reader = connect(proxy, TestUsers.APP_USER)) {
            assertThat(writeHereReadThere(writer, reader, 2_000)).containsOnly(new Read(REPLICA_ID, true));
        }
    }

    @Test
    void aReplicaThatDoesNotGetThereInTimeLeavesTheReadToThePrimary() throws Exception {
        try (ProxyServer proxy = proxy(RoutingConfig.ReadYourWrites.GTID, ReadYourWritesScope.SESSION, Duration.ofMillis(200));
             Connection session = connect(proxy, TestUsers.APP_USER)) {
            List<Read> reads = writeHereReadThere(session, session, 3_000);
            assertThat(reads).extracting(Read::sawWrite).containsOnly(true);
            assertThat(reads.get(0).serverId()).as("the replica is a second behind").isEqualTo(PRIMARY_ID);
        }
    }

    /** Without read-your-writes the same reads miss the writes: the delay is real, the tests above can fail. */
    @Test
    void withoutItTheReplicaAnswersBeforeItHasTheWrite() throws Exception {
        try (ProxyServer proxy = proxy(RoutingConfig.ReadYourWrites.OFF, ReadYourWritesScope.SESSION, Duration.ofSeconds(5));
             Connection session = connect(proxy, TestUsers.APP_USER)) {
            assertThat(writeHereReadThere(session, session, 4_000)).contains(new Read(REPLICA_ID, false));
        }
    }
}
