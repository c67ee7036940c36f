package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TimeoutsConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Far more clients than backend connections, at the default queue settings: the line for a
 * connection is long (each waiter waits far longer than timeouts.backend_queue and the handshake
 * timeout), but it moves, so every statement is served, as a server serves more clients than it
 * has threads. The seeds' mysqlslap at 3000 clients on 200 connections is this, scaled down.
 */
@ExtendWith(MariaDbClusterExtension.class)
class SaturatedPoolIT {

    private static final int CLIENTS = 200;
    private static final int STATEMENTS = 2;
    private static final int CONNECTIONS = 2;

    @Test
    void aLongButMovingLineServesEveryClient(MariaDbCluster cluster) throws Exception {
        BackendConfig primary = ProxyFixture.backend(cluster.primary());
        BackendConfig capped = new BackendConfig(primary.name(), primary.address(), primary.role(), 1, CONNECTIONS);
        TimeoutsConfig defaults = TimeoutsConfig.defaults();
        SluiceConfig config = ProxyFixture.config(List.of(capped))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN));
        // Each statement holds a connection 100 ms: the last in line waits about 20 s.
        double lineSeconds = CLIENTS * STATEMENTS * 0.1 / CONNECTIONS;
        assertThat(lineSeconds).isGreaterThan(2.0 * defaults.backendQueue().toSeconds())
                .isGreaterThan(defaults.handshake().toSeconds());
        Map<String, AtomicInteger> errors = new ConcurrentHashMap<>();
        AtomicInteger answered = new AtomicInteger();
        try (ProxyServer proxy = ProxyFixture.start(config);
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> clients = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                clients.add(threads.submit(() -> {
                    try (Connection c = ProxyFixture.connect(proxy, "sluice_test",
                            "connectTimeout=120000&socketTimeout=120000");
                         Statement s = c.createStatement()) {
                        for (int q = 0; q < STATEMENTS; q++) {
                            try (ResultSet rs = s.executeQuery("SELECT SLEEP(0.1), 7")) {
                                if (rs.next() && rs.getInt(2) == 7) {
                                    answered.incrementAndGet();
                                }
                            }
                        }
                    } catch (SQLException e) {
                        errors.computeIfAbsent(e.getErrorCode() + " " + e.getMessage(), k -> new AtomicInteger())
                                .incrementAndGet();
                    }
                    return null;
                }));
            }
            for (Future<?> client : clients) {
                client.get(180, TimeUnit.SECONDS);
            }
            assertThat(errors).as("errors by code and message").isEmpty();
            assertThat(answered.get()).isEqualTo(CLIENTS * STATEMENTS);
            assertThat(proxy.runtime().backends().get(0).openConnections().get()).isLessThanOrEqualTo(CONNECTIONS);
        }
    }
}
