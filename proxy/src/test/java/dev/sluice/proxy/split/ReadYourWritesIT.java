package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RoutingConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.ClusterSpec;
import dev.sluice.testkit.MariaDbCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A session reads right after it writes while one replica lags a second behind (MASTER_DELAY):
 * in gtid mode every read sees its write; with read_your_writes off some reads are stale, which
 * shows the test can tell the modes apart.
 */
class ReadYourWritesIT {

    private static MariaDbCluster cluster;

    @BeforeAll
    static void startCluster() throws SQLException {
        cluster = MariaDbCluster.start(ClusterSpec.builder().replicas(2).build());
        try (Connection c = cluster.primary().openAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE sluice_test.ryw (id INT PRIMARY KEY, session INT)");
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(10));
        cluster.replicas().get(0).setReplicaDelay(1);
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    private static ProxyServer proxy(RoutingConfig.ReadYourWrites mode) {
        RoutingConfig routing = new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN, mode,
                RoutingConfig.DEFAULT_PRIMARY_WINDOW, Duration.ofMillis(200), List.of());
        return ProxyFixture.start(ProxyFixture.config(ProxyFixture.backends(cluster)).withRouting(routing));
    }

    /** Writes a row then reads it back, {@code pairs} times per session; returns the stale reads. */
    private static int writeThenRead(ProxyServer proxy, int sessions, int pairs, int firstId) throws Exception {
        AtomicInteger stale = new AtomicInteger();
        try (ExecutorService pool = Executors.newFixedThreadPool(sessions)) {
            List<Future<?>> runs = new ArrayList<>();
            for (int s = 0; s < sessions; s++) {
                int base = firstId + s * pairs;
                int session = s;
                runs.add(pool.submit(() -> {
                    try (Connection c = ProxyFixture.connect(proxy, "sluice_test", "");
                         PreparedStatement write = c.prepareStatement("INSERT INTO ryw VALUES (?, ?)");
                         PreparedStatement read = c.prepareStatement("SELECT COUNT(*) FROM ryw WHERE id = ?")) {
                        for (int i = 0; i < pairs; i++) {
                            write.setInt(1, base + i);
                            write.setInt(2, session);
                            write.executeUpdate();
                            read.setInt(1, base + i);
                            try (ResultSet rs = read.executeQuery()) {
                                rs.next();
                                if (rs.getInt(1) != 1) {
                                    stale.incrementAndGet();
                                }
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> run : runs) {
                run.get(5, TimeUnit.MINUTES);
            }
        }
        return stale.get();
    }

    @Test
    void inGtidModeTenThousandReadsAllSeeTheirOwnWrite() throws Exception {
        try (ProxyServer proxy = proxy(RoutingConfig.ReadYourWrites.GTID)) {
            assertThat(writeThenRead(proxy, 4, 2_500, 1_000_000)).as("stale reads").isZero();
        }
    }

    @Test
    void withReadYourWritesOffStaleReadsHappen() throws Exception {
        try (ProxyServer proxy = proxy(RoutingConfig.ReadYourWrites.OFF)) {
            assertThat(writeThenRead(proxy, 1, 50, 2_000_000)).as("stale reads").isPositive();
        }
    }

    @Test
    void aPrimaryWindowKeepsReadsOnThePrimaryAfterAWrite() throws Exception {
        try (ProxyServer proxy = proxy(RoutingConfig.ReadYourWrites.PRIMARY_WINDOW)) {
            assertThat(writeThenRead(proxy, 1, 200, 3_000_000)).as("stale reads").isZero();
        }
    }
}
