package dev.sluice.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.MariaDbServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Where sessions land under each balancer, counted by asking each session's server for its port.
 * The two backends are the cluster's two replicas (read-only does not matter: sessions only read).
 */
@ExtendWith(MariaDbClusterExtension.class)
class BalancingIT {

    private static ProxyServer start(MariaDbCluster cluster, RoutingConfig.Balancer balancer, int weightA, int weightB) {
        MariaDbServer a = cluster.replicas().get(0);
        MariaDbServer b = cluster.replicas().get(1);
        List<BackendConfig> backends = List.of(weighted(a, weightA), weighted(b, weightB));
        SluiceConfig config = ProxyFixture.config(backends);
        config = config.withRouting(new RoutingConfig(RoutingConfig.Mode.SESSION, balancer));
        return ProxyFixture.start(config);
    }

    private static BackendConfig weighted(MariaDbServer server, int weight) {
        BackendConfig base = ProxyFixture.backend(server);
        return new BackendConfig(base.name(), base.address(), base.role(), weight, base.maxConnections());
    }

    private static int port(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT @@port")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static Map<Integer, Integer> sessions(ProxyServer proxy, int count) throws SQLException {
        Map<Integer, Integer> perPort = new HashMap<>();
        for (int i = 0; i < count; i++) {
            try (Connection c = ProxyFixture.connect(proxy, null, "")) {
                perPort.merge(port(c), 1, Integer::sum);
            }
        }
        return perPort;
    }

    @Test
    void roundRobinSplitsAThousandSessionsEvenly(MariaDbCluster cluster) throws SQLException {
        try (ProxyServer proxy = start(cluster, RoutingConfig.Balancer.ROUND_ROBIN, 1, 1)) {
            Map<Integer, Integer> perPort = sessions(proxy, 1000);
            assertThat(perPort).containsEntry(cluster.replicas().get(0).port(), 500)
                    .containsEntry(cluster.replicas().get(1).port(), 500);
        }
    }

    @Test
    void weightedThreeToOneLandsWithinFivePercent(MariaDbCluster cluster) throws SQLException {
        try (ProxyServer proxy = start(cluster, RoutingConfig.Balancer.WEIGHTED, 3, 1)) {
            Map<Integer, Integer> perPort = sessions(proxy, 1000);
            assertThat(perPort.get(cluster.replicas().get(0).port())).isBetween(700, 800);
            assertThat(perPort.get(cluster.replicas().get(1).port())).isBetween(200, 300);
        }
    }

    @Test
    void randomFollowsWeightsRoughly(MariaDbCluster cluster) throws SQLException {
        try (ProxyServer proxy = start(cluster, RoutingConfig.Balancer.RANDOM, 3, 1)) {
            Map<Integer, Integer> perPort = sessions(proxy, 400);
            // 3:1 over 400 draws: 300 expected, 5 standard deviations is about 43.
            assertThat(perPort.get(cluster.replicas().get(0).port())).isBetween(257, 343);
        }
    }

    @Test
    void leastConnectionsEvensOutASkewedStart(MariaDbCluster cluster) throws SQLException {
        int portA = cluster.replicas().get(0).port();
        int portB = cluster.replicas().get(1).port();
        try (ProxyServer proxy = start(cluster, RoutingConfig.Balancer.LEAST_CONNECTIONS, 1, 1)) {
            List<Connection> open = new ArrayList<>();
            try {
                for (int i = 0; i < 10; i++) {
                    open.add(ProxyFixture.connect(proxy, null, ""));
                }
                // Skew it: close every session on B, leaving five open on A.
                for (Connection c : List.copyOf(open)) {
                    if (port(c) == portB) {
                        c.close();
                        open.remove(c);
                    }
                }
                assertThat(open).hasSize(5);
                List<Integer> next = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    Connection c = ProxyFixture.connect(proxy, null, "");
                    open.add(c);
                    next.add(port(c));
                }
                assertThat(next.subList(0, 5)).as("the idle backend takes new sessions until it catches up")
                        .containsOnly(portB);
                long onA = open.stream().filter(c -> portOf(c) == portA).count();
                long onB = open.stream().filter(c -> portOf(c) == portB).count();
                assertThat(Math.abs(onA - onB)).isLessThanOrEqualTo(1);
            } finally {
                for (Connection c : open) {
                    c.close();
                }
            }
        }
    }

    @Test
    void leastLatencyPrefersTheFasterBackend(MariaDbCluster cluster) throws SQLException {
        try (ProxyServer proxy = start(cluster, RoutingConfig.Balancer.LEAST_LATENCY, 1, 1)) {
            // Teach the proxy that A is slow: one slow statement on a session that lands on A.
            int portA = cluster.replicas().get(0).port();
            var backendA = proxy.runtime().backends().get(0);
            for (int i = 0; i < 10 && backendA.stats().latencyEwmaNanos() < 50_000_000; i++) {
                try (Connection c = ProxyFixture.connect(proxy, null, "");
                     Statement s = c.createStatement()) {
                    if (port(c) == portA) {
                        s.execute("SELECT SLEEP(0.3)");
                    }
                }
            }
            assertThat(backendA.stats().latencyEwmaNanos()).isGreaterThan(50_000_000);
            Map<Integer, Integer> perPort = sessions(proxy, 100);
            assertThat(perPort.getOrDefault(portA, 0)).as("sessions on the slow backend").isLessThan(50);
        }
    }

    private static int portOf(Connection c) {
        try {
            return port(c);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
