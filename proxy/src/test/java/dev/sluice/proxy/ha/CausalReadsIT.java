package dev.sluice.proxy.ha;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RoutingConfig;
import dev.sluice.config.RoutingConfig.ReadYourWritesScope;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.ClusterSpec;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.TestUsers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Reads on one connection right after writes on another, as an application with a connection
 * pool does, while one of two replicas lags a second behind (MASTER_DELAY): with
 * {@code read_your_writes: gtid} and scope user every read of the same user sees the write, with
 * scope global every read of anyone; with scope session (the writes are not the reading
 * session's) some reads are stale, which shows the test can tell the scopes apart.
 */
class CausalReadsIT {

    private static final int PAIRS = 200;
    private static MariaDbCluster cluster;

    @BeforeAll
    static void startCluster() throws SQLException {
        cluster = MariaDbCluster.start(ClusterSpec.builder().replicas(2).build());
        try (Connection c = cluster.primary().openAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE sluice_test.causal (id INT PRIMARY KEY)");
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(10));
        cluster.replicas().get(0).setReplicaDelay(1);
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    private static ProxyServer proxy(ReadYourWritesScope scope) {
        RoutingConfig routing = new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN,
                RoutingConfig.ReadYourWrites.GTID, RoutingConfig.DEFAULT_PRIMARY_WINDOW, Duration.ofMillis(200), List.of())
                .withReadYourWrites(RoutingConfig.ReadYourWrites.GTID, scope);
        return ProxyFixture.start(ProxyFixture.config(ProxyFixture.backends(cluster)).withRouting(routing));
    }

    private static Connection connect(ProxyServer proxy, String user, String password) throws SQLException {
        return DriverManager.getConnection(ProxyFixture.url(proxy, "sluice_test", ""), user, password);
    }

    /** Writes row after row on {@code writer} and reads each back at once on {@code reader}; returns the stale reads. */
    private static int writeHereReadThere(Connection writer, Connection reader, int firstId) throws SQLException {
        int stale = 0;
        try (PreparedStatement write = writer.prepareStatement("INSERT INTO causal VALUES (?)");
             PreparedStatement read = reader.prepareStatement("SELECT COUNT(*) FROM causal WHERE id = ?")) {
            for (int i = 0; i < PAIRS; i++) {
                write.setInt(1, firstId + i);
                write.executeUpdate();
                read.setInt(1, firstId + i);
                try (ResultSet rs = read.executeQuery()) {
                    rs.next();
                    if (rs.getInt(1) != 1) {
                        stale++;
                    }
                }
            }
        }
        return stale;
    }

    @Test
    void scopeUserReadsTheUsersWritesOnAnyConnection() throws Exception {
        try (ProxyServer proxy = proxy(ReadYourWritesScope.USER);
             Connection writer = connect(proxy, TestUsers.APP_USER, TestUsers.APP_PASSWORD);
             Connection reader = connect(proxy, TestUsers.APP_USER, TestUsers.APP_PASSWORD)) {
            assertThat(writeHereReadThere(writer, reader, 1_000)).as("stale reads").isZero();
        }
    }

    @Test
    void scopeGlobalReadsEveryonesWrites() throws Exception {
        try (ProxyServer proxy = proxy(ReadYourWritesScope.GLOBAL);
             Connection writer = connect(proxy, TestUsers.APP_USER, TestUsers.APP_PASSWORD);
             Connection reader = connect(proxy, TestUsers.APP2_USER, TestUsers.APP2_PASSWORD)) {
            assertThat(writeHereReadThere(writer, reader, 2_000)).as("stale reads").isZero();
        }
    }

    @Test
    void scopeSessionDoesNotCoverAnotherConnectionsWrites() throws Exception {
        try (ProxyServer proxy = proxy(ReadYourWritesScope.SESSION);
             Connection writer = connect(proxy, TestUsers.APP_USER, TestUsers.APP_PASSWORD);
             Connection reader = connect(proxy, TestUsers.APP_USER, TestUsers.APP_PASSWORD)) {
            assertThat(writeHereReadThere(writer, reader, 3_000)).as("stale reads").isPositive();
        }
    }
}
