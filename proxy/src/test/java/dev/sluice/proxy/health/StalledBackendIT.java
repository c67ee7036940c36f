package dev.sluice.proxy.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.HealthConfig;
import dev.sluice.config.RoutingConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.MariaDbServer;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A replica that stops answering (kill -STOP) in the middle of a read: the health check shuns it
 * and the read it holds fails there and runs again on the primary, instead of waiting for ever.
 */
@ExtendWith(MariaDbClusterExtension.class)
class StalledBackendIT {

    @Test
    void aReadOnAStoppedReplicaIsAnsweredElsewhereOnceTheReplicaIsShunned(MariaDbCluster cluster) throws Exception {
        MariaDbServer replica = cluster.replicas().get(0);
        var backends = List.of(ProxyFixture.backend(cluster.primary()), ProxyFixture.backend(replica));
        try (ProxyServer proxy = ProxyFixture.start(ProxyFixture.config(backends)
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN))
                .withHealth(new HealthConfig(true, Duration.ofMillis(200), Duration.ofMillis(300), 2, 2, Duration.ZERO,
                        Optional.empty(), Optional.empty())));
             Connection c = ProxyFixture.connect(proxy, "sluice_test", "socketTimeout=30000");
             Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT @@port")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).as("reads go to the replica").isEqualTo(replica.port());
            }
            // Stopped once the read runs there: its SLEEP shows in the replica's process list.
            Thread.ofVirtual().start(() -> {
                try (Connection admin = replica.openAdmin(); Statement list = admin.createStatement()) {
                    Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                            .until(() -> sleeping(list));
                    signal(replica, "STOP");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            long start = System.nanoTime();
            try (ResultSet rs = s.executeQuery("SELECT SLEEP(2), @@port")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(2)).as("answered by the primary").isEqualTo(cluster.primary().port());
            }
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            assertThat(seconds).as("shunned within a few health intervals, then 2 s on the primary").isLessThan(15);
        } finally {
            signal(replica, "CONT");
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(30));
    }

    /** Pass-through sessions too: the statement in flight on the stopped backend fails once it is shunned. */
    @Test
    void aPassThroughStatementOnAStoppedBackendFailsOnceItIsShunned(MariaDbCluster cluster) throws Exception {
        MariaDbServer replica = cluster.replicas().get(0);
        try (ProxyServer proxy = ProxyFixture.start(ProxyFixture.config(List.of(ProxyFixture.backend(replica)))
                .withUsers(List.of())
                // Pass-through has no account of its own for the checks: they need one.
                .withHealth(new HealthConfig(true, Duration.ofMillis(200), Duration.ofMillis(300), 2, 2, Duration.ZERO,
                        Optional.of(dev.sluice.testkit.TestUsers.APP_USER),
                        Optional.of(dev.sluice.testkit.TestUsers.APP_PASSWORD))));
             Connection c = ProxyFixture.connect(proxy, "sluice_test", "socketTimeout=30000");
             Statement s = c.createStatement()) {
            Thread.ofVirtual().start(() -> {
                try (Connection admin = replica.openAdmin(); Statement list = admin.createStatement()) {
                    Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                            .until(() -> sleeping(list));
                    signal(replica, "STOP");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            long start = System.nanoTime();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.executeQuery("SELECT SLEEP(2), @@port"))
                    .isInstanceOf(java.sql.SQLException.class);
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            assertThat(seconds).as("failed within a few health intervals, not after the 30 s socket timeout")
                    .isLessThan(15);
        } finally {
            signal(replica, "CONT");
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(30));
    }

    private static boolean sleeping(Statement list) throws java.sql.SQLException {
        try (ResultSet rs = list.executeQuery("SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                + " WHERE INFO LIKE 'SELECT SLEEP(2)%'")) {
            return rs.next() && rs.getInt(1) > 0;
        }
    }

    private static void signal(MariaDbServer server, String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(server.pid())).inheritIO().start();
        assertThat(kill.waitFor()).isZero();
    }
}
