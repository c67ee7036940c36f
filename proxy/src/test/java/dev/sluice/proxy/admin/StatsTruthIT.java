package dev.sluice.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.health.BackendHealth;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.MariaDbServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The proxy's per-backend query counts against the truth: each backend's own Com_* deltas (the
 * primary's Com_select, Com_insert, Com_update and Com_delete; a replica's Com_select, as its
 * other counters also count the writes it replicates), less the SELECTs its health checks ran;
 * and their sum against the statements the clients sent. Health checks run every 100 ms throughout.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StatsTruthIT {

    private static final List<String> COUNTERS = List.of("Com_select", "Com_insert", "Com_update", "Com_delete");
    private static final int CLIENTS = 4;
    private static final int STATEMENTS_PER_CLIENT = 300;

    /** Backend counters and health-check SELECTs read at one instant with no check under way. */
    private record Snapshot(Map<String, Long> server, Map<String, Long> proxy, Map<String, Long> health) {
    }

    @Test
    void perBackendQueryCountsMatchTheBackendsOwnCounters(MariaDbCluster cluster) throws Exception {
        try (Connection admin = cluster.primary().openAdmin(); Statement s = admin.createStatement()) {
            s.execute("CREATE OR REPLACE TABLE sluice_test.truth (id INT PRIMARY KEY, n INT)");
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(30));
        var config = AdminPortsIT.config(cluster).withHealth(new dev.sluice.config.HealthConfig(true,
                Duration.ofMillis(100), Duration.ofSeconds(1), 2, 2, Duration.ZERO, java.util.Optional.empty(),
                java.util.Optional.empty()));
        try (ProxyServer proxy = ProxyFixture.start(config)) {
            List<Connection> sessions = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                sessions.add(ProxyFixture.connect(proxy, "sluice_test", ""));
            }
            try {
                Snapshot before = snapshot(cluster, proxy);
                AtomicLong sent = new AtomicLong();
                ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
                List<Future<?>> done = new ArrayList<>();
                for (int c = 0; c < CLIENTS; c++) {
                    Connection session = sessions.get(c);
                    int client = c;
                    done.add(pool.submit(() -> {
                        try (Statement s = session.createStatement()) {
                            for (int i = 0; i < STATEMENTS_PER_CLIENT; i++) {
                                int id = client * 100_000 + i;
                                switch (i % 5) {
                                    case 0 -> s.executeUpdate("INSERT INTO truth VALUES (" + id + ", 0)");
                                    case 1 -> s.executeUpdate("UPDATE truth SET n = n + 1 WHERE id = " + (id - 1));
                                    case 4 -> s.executeUpdate("DELETE FROM truth WHERE id = " + (id - 4));
                                    default -> {
                                        try (ResultSet rs = s.executeQuery("SELECT n FROM truth WHERE id = " + id)) {
                                            rs.next();
                                        }
                                    }
                                }
                                sent.incrementAndGet();
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> future : done) {
                    future.get(60, TimeUnit.SECONDS);
                }
                pool.shutdown();
                Snapshot after = snapshot(cluster, proxy);

                long proxyTotal = 0;
                System.out.println("backend     proxy queries   Com_* delta   health SELECTs");
                for (MariaDbServer server : cluster.servers()) {
                    String name = server.name();
                    long proxied = after.proxy().get(name) - before.proxy().get(name);
                    long comDelta = after.server().get(name) - before.server().get(name);
                    long checks = after.health().get(name) - before.health().get(name);
                    System.out.printf("%-10s %14d %13d %16d%n", name, proxied, comDelta, checks);
                    assertThat(checks).as(name + ": health checks ran during the load").isPositive();
                    assertThat(proxied).as(name + ": proxy count = Com_* delta - health-check SELECTs")
                            .isEqualTo(comDelta - checks);
                    proxyTotal += proxied;
                }
                assertThat(proxyTotal).as("every statement the clients sent, counted once").isEqualTo(sent.get())
                        .isEqualTo((long) CLIENTS * STATEMENTS_PER_CLIENT);
                long replicaReads = cluster.replicas().stream()
                        .mapToLong(r -> after.proxy().get(r.name()) - before.proxy().get(r.name())).sum();
                assertThat(replicaReads).as("reads went to the replicas").isEqualTo((long) CLIENTS * STATEMENTS_PER_CLIENT * 2 / 5);
            } finally {
                for (Connection session : sessions) {
                    session.close();
                }
            }
        }
    }

    private static Snapshot snapshot(MariaDbCluster cluster, ProxyServer proxy) {
        while (true) {
            Map<String, Long> healthBefore = healthSelects(proxy);
            if (anyChecking(proxy)) {
                LockSupport.parkNanos(2_000_000);
                continue;
            }
            Map<String, Long> server = new HashMap<>();
            for (MariaDbServer s : cluster.servers()) {
                Map<String, Long> status = s.globalStatus();
                List<String> counters = s.role() == dev.sluice.testkit.Role.PRIMARY ? COUNTERS : List.of("Com_select");
                server.put(s.name(), counters.stream().mapToLong(c -> status.getOrDefault(c, 0L)).sum());
            }
            Map<String, Long> healthAfter = healthSelects(proxy);
            if (healthBefore.equals(healthAfter) && !anyChecking(proxy)) {
                Map<String, Long> proxied = new HashMap<>();
                proxy.runtime().backends().forEach(b -> proxied.put(b.name(), b.stats().queries()));
                return new Snapshot(server, proxied, healthAfter);
            }
        }
    }

    private static boolean anyChecking(ProxyServer proxy) {
        return proxy.runtime().backends().stream().map(b -> proxy.admin().health().health(b)).anyMatch(BackendHealth::checking);
    }

    private static Map<String, Long> healthSelects(ProxyServer proxy) {
        Map<String, Long> selects = new HashMap<>();
        for (Backend backend : proxy.runtime().backends()) {
            selects.put(backend.name(), proxy.admin().health().health(backend).selectsSent());
        }
        return selects;
    }
}
