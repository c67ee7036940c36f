package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.LimitsConfig;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TimeoutsConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Thousands of clients on a few hundred backend connections: 5,000 sessions open at once, each
 * running point selects, through backends capped at 100 connections each. Holds about 10,300 of
 * the 20,000 file descriptors a process may have here (client, proxy side, backends).
 */
@ExtendWith(MariaDbClusterExtension.class)
class MultiplexingIT {

    private static final int CLIENTS = 5_000;

    @Test
    void fiveThousandClientsShareBackendsCappedAtOneHundred(MariaDbCluster cluster) throws Exception {
        try (Connection c = cluster.primary().openAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS sluice_test.points (id INT PRIMARY KEY, v INT)");
            s.execute("REPLACE INTO sluice_test.points VALUES (1, 10), (2, 20), (3, 30)");
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(10));
        List<BackendConfig> capped = ProxyFixture.backends(cluster).stream()
                .map(b -> new BackendConfig(b.name(), b.address(), b.role(), b.weight(), 100)).toList();
        TimeoutsConfig d = TimeoutsConfig.defaults();
        SluiceConfig config = ProxyFixture.config(capped)
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN))
                .withLimits(new LimitsConfig(10_000, 10_000, false, LimitsConfig.MAX_PACKET_SIZE))
                .withTimeouts(new TimeoutsConfig(d.connect(), Duration.ofSeconds(120), d.clientIdle(),
                        Duration.ofSeconds(120), d.poolIdle(), d.shutdown(), d.backendRetry()));
        Map<String, AtomicInteger> errors = new ConcurrentHashMap<>();
        AtomicInteger answered = new AtomicInteger();
        AtomicInteger peakBackendConnections = new AtomicInteger();
        CountDownLatch allConnected = new CountDownLatch(CLIENTS);
        CountDownLatch release = new CountDownLatch(1);
        Semaphore connecting = new Semaphore(64);
        try (ProxyServer proxy = ProxyFixture.start(config);
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> sessions = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                int id = 1 + i % 3;
                sessions.add(threads.submit(() -> {
                    Connection c = null;
                    try {
                        connecting.acquire();
                        try {
                            c = ProxyFixture.connect(proxy, "sluice_test", "useServerPrepStmts=false&connectTimeout=120000");
                        } finally {
                            connecting.release();
                        }
                        try (PreparedStatement ps = c.prepareStatement("SELECT v FROM points WHERE id = ?")) {
                            for (int q = 0; q < 5; q++) {
                                ps.setInt(1, id);
                                try (ResultSet rs = ps.executeQuery()) {
                                    if (rs.next() && rs.getInt(1) == id * 10) {
                                        answered.incrementAndGet();
                                    }
                                }
                            }
                        }
                        int open = proxy.runtime().backends().stream().mapToInt(b -> b.openConnections().get()).sum();
                        peakBackendConnections.accumulateAndGet(open, Math::max);
                        allConnected.countDown();
                        release.await(5, TimeUnit.MINUTES);
                    } catch (SQLException e) {
                        errors.computeIfAbsent(e.getErrorCode() + " " + e.getMessage(), k -> new AtomicInteger())
                                .incrementAndGet();
                        allConnected.countDown();
                    } finally {
                        if (c != null) {
                            c.close();
                        }
                    }
                    return null;
                }));
            }
            assertThat(allConnected.await(5, TimeUnit.MINUTES)).isTrue();
            int clients = proxy.runtime().clientConnections().get();
            int backendConnections = proxy.runtime().backends().stream().mapToInt(b -> b.openConnections().get()).sum();
            for (Backend backend : proxy.runtime().backends()) {
                assertThat(backend.openConnections().get()).as(backend.name()).isLessThanOrEqualTo(100);
            }
            System.out.printf("%d clients on %d backend connections (%.1f clients per connection), peak %d%n",
                    clients, backendConnections, (double) clients / Math.max(1, backendConnections),
                    peakBackendConnections.get());
            release.countDown();
            for (Future<?> session : sessions) {
                session.get(5, TimeUnit.MINUTES);
            }
            assertThat(errors).as("errors by code and message").isEmpty();
            assertThat(clients).isEqualTo(CLIENTS);
            assertThat(answered.get()).isEqualTo(CLIENTS * 5);
            assertThat(backendConnections).isLessThanOrEqualTo(300);
            assertThat((double) clients / backendConnections).as("clients per backend connection").isGreaterThan(10);
        }
    }
}
