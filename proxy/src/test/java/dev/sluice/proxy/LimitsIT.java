package dev.sluice.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.LimitsConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TimeoutsConfig;
import dev.sluice.testkit.ClusterSpec;
import dev.sluice.testkit.MariaDbCluster;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * max_client_connections and a backend's max_connections under real load. The test JVM holds the
 * clients, the proxy's client side and its backend side: 2,000 sessions cost about 6,000 of the
 * 20,000 file descriptors a process may have here.
 */
class LimitsIT {

    private static MariaDbCluster cluster;

    @BeforeAll
    static void startServer() {
        cluster = MariaDbCluster.start(ClusterSpec.builder().replicas(0).maxConnections(2600).build());
    }

    @AfterAll
    static void stopServer() {
        cluster.close();
    }

    private static SluiceConfig config(int maxClients, int backendCap, int queue, Duration queueTimeout) {
        BackendConfig base = ProxyFixture.backend(cluster.primary());
        SluiceConfig config = ProxyFixture.config(List.of(new BackendConfig(base.name(), base.address(), base.role(),
                1, backendCap)));
        TimeoutsConfig d = TimeoutsConfig.defaults();
        return config.withLimits(new LimitsConfig(maxClients, queue, false, LimitsConfig.MAX_PACKET_SIZE))
                .withTimeouts(new TimeoutsConfig(d.connect(), Duration.ofSeconds(60), d.clientIdle(), queueTimeout,
                        d.poolIdle(), d.shutdown(), d.backendRetry()));
    }

    private static int selectOne(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void theConnectionAfterMaxClientConnectionsGetsErr1040AndTheOthersKeepWorking() throws Exception {
        int max = 2000;
        try (ProxyServer proxy = ProxyFixture.start(config(max, 2500, 100, Duration.ofSeconds(5)));
             ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Connection> open = java.util.Collections.synchronizedList(new ArrayList<>());
            Semaphore inFlight = new Semaphore(32);
            List<Future<?>> connects = new ArrayList<>();
            for (int i = 0; i < max; i++) {
                connects.add(pool.submit(() -> {
                    inFlight.acquire();
                    try {
                        open.add(ProxyFixture.connect(proxy, null, ""));
                    } finally {
                        inFlight.release();
                    }
                    return null;
                }));
            }
            for (Future<?> connect : connects) {
                connect.get(120, TimeUnit.SECONDS);
            }
            try {
                assertThat(open).hasSize(max);
                assertThatThrownBy(() -> ProxyFixture.connect(proxy, null, "").close())
                        .isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1040))
                        .hasMessageContaining("Too many connections");
                AtomicInteger answered = new AtomicInteger();
                List<Future<?>> queries = new ArrayList<>();
                for (Connection c : open) {
                    queries.add(pool.submit(() -> {
                        inFlight.acquire();
                        try {
                            if (selectOne(c) == 1) {
                                answered.incrementAndGet();
                            }
                        } finally {
                            inFlight.release();
                        }
                        return null;
                    }));
                }
                for (Future<?> query : queries) {
                    query.get(120, TimeUnit.SECONDS);
                }
                assertThat(answered.get()).isEqualTo(max);
            } finally {
                for (Connection c : open) {
                    c.close();
                }
            }
            // Once they are gone, new clients are welcome again.
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> proxy.runtime().clientConnections().get() == 0);
            try (Connection c = ProxyFixture.connect(proxy, null, "")) {
                assertThat(selectOne(c)).isEqualTo(1);
            }
        }
    }

    @Test
    void fourThousandClientsThroughABackendCappedAtOneHundredAllFinish() throws Exception {
        int clients = 4000;
        try (ProxyServer proxy = ProxyFixture.start(config(10_000, 100, 5000, Duration.ofSeconds(120)));
             ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Map<String, AtomicInteger> errors = new ConcurrentHashMap<>();
            AtomicInteger done = new AtomicInteger();
            AtomicInteger peakBackend = new AtomicInteger();
            List<Future<?>> sessions = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                sessions.add(pool.submit(() -> {
                    try (Connection c = ProxyFixture.connect(proxy, null, "connectTimeout=150000")) {
                        if (selectOne(c) == 1) {
                            done.incrementAndGet();
                        }
                        peakBackend.accumulateAndGet(proxy.runtime().backends().get(0).openConnections().get(), Math::max);
                    } catch (SQLException e) {
                        errors.computeIfAbsent(e.getErrorCode() + " " + e.getMessage(), k -> new AtomicInteger()).incrementAndGet();
                    }
                    return null;
                }));
            }
            for (Future<?> session : sessions) {
                session.get(180, TimeUnit.SECONDS);
            }
            assertThat(errors).as("errors by code and message").isEmpty();
            assertThat(done.get()).isEqualTo(clients);
            assertThat(peakBackend.get()).isLessThanOrEqualTo(100);
        }
    }

    @Test
    void aFullQueueAndAQueueTimeoutNameTheBackendAndItsCap() throws Exception {
        try (ProxyServer proxy = ProxyFixture.start(config(100, 2, 1, Duration.ofMillis(500)))) {
            List<Connection> holders = new ArrayList<>();
            try {
                holders.add(ProxyFixture.connect(proxy, null, ""));
                holders.add(ProxyFixture.connect(proxy, null, ""));
                // Third session queues and times out after 500 ms.
                assertThatThrownBy(() -> ProxyFixture.connect(proxy, null, "").close())
                        .isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1040))
                        .hasMessageContaining("backend primary is at its max_connections (2)")
                        .hasMessageContaining("no connection came free within 500 ms");
            } finally {
                for (Connection c : holders) {
                    c.close();
                }
            }
        }
    }
}
