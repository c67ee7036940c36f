package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.HealthConfig;
import dev.sluice.config.RoutingConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.MariaDbServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A replica whose replication stops falls behind: within max_replication_lag plus one health
 * interval it gets no reads, and once it catches up it gets them again.
 */
@ExtendWith(MariaDbClusterExtension.class)
class ReplicaLagIT {

    private static final Duration INTERVAL = Duration.ofMillis(200);
    private static final Duration MAX_LAG = Duration.ofSeconds(1);

    private static Set<Integer> readPorts(ProxyServer proxy, int reads) throws SQLException {
        Set<Integer> ports = new HashSet<>();
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = c.createStatement()) {
            for (int i = 0; i < reads; i++) {
                try (ResultSet rs = s.executeQuery("SELECT @@port")) {
                    rs.next();
                    ports.add(rs.getInt(1));
                }
            }
        }
        return ports;
    }

    @Test
    void aReplicaBehindMaxReplicationLagGetsNoReadsUntilItCatchesUp(MariaDbCluster cluster) throws Exception {
        MariaDbServer behind = cluster.replicas().get(0);
        var config = ProxyFixture.config(ProxyFixture.backends(cluster))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN))
                .withHealth(new HealthConfig(true, INTERVAL, Duration.ofSeconds(1), 2, 2, MAX_LAG,
                        Optional.empty(), Optional.empty()));
        try (ProxyServer proxy = ProxyFixture.start(config)) {
            Backend backend = proxy.runtime().backends().stream().filter(b -> b.name().equals(behind.name()))
                    .findFirst().orElseThrow();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> readPorts(proxy, 10).contains(behind.port()));
            behind.stopReplicaSqlThread();
            try {
                try (Connection admin = cluster.primary().openAdmin(); Statement s = admin.createStatement()) {
                    s.execute("CREATE TABLE IF NOT EXISTS sluice_test.lagging (id INT PRIMARY KEY)");
                    s.execute("REPLACE INTO sluice_test.lagging VALUES (1)");
                }
                long stopped = System.nanoTime();
                Awaitility.await().atMost(MAX_LAG.plus(INTERVAL).plus(Duration.ofSeconds(2))).until(backend::lagging);
                System.out.printf("%s lagging after %d ms%n", behind.name(), (System.nanoTime() - stopped) / 1_000_000);
                assertThat(readPorts(proxy, 30)).as("reads while it lags").doesNotContain(behind.port());
            } finally {
                behind.startReplicaSqlThread();
            }
            Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> !backend.lagging());
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> readPorts(proxy, 10).contains(behind.port()));
        }
    }
}
