package dev.sluice.proxy.ha;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HealthConfig;
import dev.sluice.config.HostPort;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code routing.discover: replica_hosts} against the shared cluster: the config names only the
 * primary, its replicas join from its SHOW SLAVE HOSTS and take reads, and one whose replication
 * stops (so the primary no longer lists it) leaves after a few checks and joins again when it
 * comes back.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReplicaJoinIT {

    private static final Duration INTERVAL = Duration.ofMillis(200);

    private static SluiceConfig onlyThePrimary(MariaDbCluster cluster) {
        MariaDbServer primary = cluster.primary();
        BackendConfig configured = new BackendConfig("primary", new HostPort(primary.host(), primary.port()),
                BackendConfig.Role.AUTO, 1, 200);
        // SHOW SLAVE HOSTS needs REPLICATION MASTER ADMIN, which the application accounts lack.
        return ProxyFixture.config(List.of())
                .withHealth(new HealthConfig(true, INTERVAL, Duration.ofSeconds(1), 2, 1, Duration.ZERO,
                        Optional.of(TestUsers.ADMIN_USER), Optional.of(TestUsers.ADMIN_PASSWORD)))
                .withBackends(List.of(configured))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN)
                        .withDiscover(RoutingConfig.Discover.REPLICA_HOSTS, Optional.empty()));
    }

    private static Set<String> backendNames(ProxyServer proxy) {
        Set<String> names = new HashSet<>();
        for (Backend backend : proxy.runtime().backends()) {
            names.add(backend.name());
        }
        return names;
    }

    private static String address(MariaDbServer server) {
        return new HostPort(server.host(), server.port()).toString();
    }

    private static Set<Integer> portsReadFrom(Connection connection, int reads) throws SQLException {
        Set<Integer> ports = new HashSet<>();
        try (Statement s = connection.createStatement()) {
            for (int i = 0; i < reads; i++) {
                try (ResultSet rs = s.executeQuery("SELECT @@port")) {
                    rs.next();
                    ports.add(rs.getInt(1));
                }
            }
        }
        return ports;
    }

    private static void touchThePrimary(MariaDbServer primary) throws SQLException {
        try (Connection admin = primary.openAdmin(); Statement s = admin.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + TestUsers.TEST_SCHEMA + ".replica_join_it (id INT PRIMARY KEY)");
            s.execute("REPLACE INTO " + TestUsers.TEST_SCHEMA + ".replica_join_it VALUES (1)");
        }
    }

    @Test
    void replicasJoinFromThePrimaryAndLeaveWhenItNoLongerListsThem(MariaDbCluster cluster) throws Exception {
        MariaDbServer replica1 = cluster.replicas().get(0);
        MariaDbServer replica2 = cluster.replicas().get(1);
        try (ProxyServer proxy = ProxyFixture.start(onlyThePrimary(cluster));
             Connection client = ProxyFixture.connect(proxy, TestUsers.TEST_SCHEMA, "")) {
            Awaitility.await().atMost(20, TimeUnit.SECONDS).untilAsserted(() -> assertThat(backendNames(proxy))
                    .containsExactlyInAnyOrder("primary", address(replica1), address(replica2)));
            Awaitility.await().atMost(20, TimeUnit.SECONDS).untilAsserted(() -> assertThat(portsReadFrom(client, 20))
                    .as("reads outside transactions go to the replicas that joined")
                    .containsExactlyInAnyOrder(replica1.port(), replica2.port()));
            for (Backend backend : proxy.runtime().backends()) {
                assertThat(backend.config().role()).as(backend.name()).isEqualTo(BackendConfig.Role.AUTO);
            }

            try (Connection admin = replica2.openAdmin(); Statement s = admin.createStatement()) {
                s.execute("STOP SLAVE");
            }
            try {
                // The primary drops a replica from its list when its dump thread finds the socket
                // closed, which it does on its next write: give it some.
                Awaitility.await().atMost(30, TimeUnit.SECONDS).untilAsserted(() -> {
                    touchThePrimary(cluster.primary());
                    assertThat(backendNames(proxy)).containsExactlyInAnyOrder("primary", address(replica1));
                });
                assertThat(portsReadFrom(client, 20)).containsExactly(replica1.port());
            } finally {
                try (Connection admin = replica2.openAdmin(); Statement s = admin.createStatement()) {
                    s.execute("START SLAVE");
                }
            }
            Awaitility.await().atMost(20, TimeUnit.SECONDS).untilAsserted(() -> assertThat(backendNames(proxy))
                    .contains(address(replica2)));
        }
    }
}
