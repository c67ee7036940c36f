package dev.sluice.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.HealthConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.testkit.ClusterSpec;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Backends killed (SIGKILL) under a running load in split mode, on a cluster of the test's own:
 * a replica, then the primary. Clients see errors only for statements in flight on the dead
 * backend (counted and printed), new reads go elsewhere at once, writes get an ERR naming the
 * primary, and each backend comes back into rotation by itself when it answers again.
 */
@Timeout(value = 170, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FailoverIT {

    private static final Duration INTERVAL = Duration.ofMillis(200);
    private static final int CLIENTS = 6;

    /** One read (by the port that answered) or write outcome, as the clients saw it. */
    private record Outcome(long nanos, boolean write, int port, String error) {
    }

    /** A primary and two replicas of their own (the tests kill them), with the table the load writes. */
    private static MariaDbCluster clusterWithTable() throws Exception {
        MariaDbCluster cluster = MariaDbCluster.start(ClusterSpec.builder().replicas(2).maxConnections(300).build());
        try (Connection admin = cluster.primary().openAdmin(); Statement s = admin.createStatement()) {
            s.execute("CREATE OR REPLACE TABLE sluice_test.failover (id INT AUTO_INCREMENT PRIMARY KEY, at BIGINT)");
            cluster.awaitReplicaCatchUp(Duration.ofSeconds(30));
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * Split mode with health checks every interval, a backend out after two failures, and writes that
     * fail at once while no primary is up (primary_wait 0; ha/PrimaryRestartIT has them wait).
     */
    private static SluiceConfig config(MariaDbCluster cluster) {
        SluiceConfig config = AdminPortsIT.config(cluster).withHealth(new HealthConfig(true, INTERVAL, Duration.ofMillis(500),
                2, 2, Duration.ZERO, Optional.empty(), Optional.empty()));
        return config.withTimeouts(config.timeouts().withPrimaryWait(Duration.ZERO));
    }

    @Test
    void aKilledReplicaLeavesTheRotationAtOnceAndComesBackByItself() throws Exception {
        try (MariaDbCluster cluster = clusterWithTable(); ProxyServer proxy = ProxyFixture.start(config(cluster))) {
            Load load = new Load(proxy);
            try {
                load.start();
                MariaDbServer replica1 = cluster.replicas().get(0);
                Backend replica1Backend = backend(proxy, "replica1");
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> load.readsFrom(replica1.port()) > 20
                        && load.readsFrom(cluster.replicas().get(1).port()) > 20);

                long killed = System.nanoTime();
                replica1.kill();
                Awaitility.await().atMost(Duration.ofSeconds(5)).until(() ->
                        replica1Backend.state() == Backend.State.SHUNNED);
                long settle = killed + INTERVAL.toNanos();
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> load.readsAfter(settle) > 100);
                assertThat(load.readsFrom(replica1.port(), settle)).as("reads answered by the dead replica after one interval")
                        .isZero();
                load.report("replica1 killed", killed);

                replica1.start();
                long restarted = System.nanoTime();
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() ->
                        replica1Backend.state() == Backend.State.ONLINE && load.readsFrom(replica1.port(), restarted) > 10);

            } finally {
                load.stop();
            }
        }
    }

    /** Split mode with the primary killed under load: writes fail naming it, reads go on, it comes back. */
    @Test
    void aKilledPrimaryFailsWritesClearlyWhileReadsGoOn() throws Exception {
        try (MariaDbCluster cluster = clusterWithTable(); ProxyServer proxy = ProxyFixture.start(config(cluster))) {
            Load load = new Load(proxy);
            try {
                load.start();
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> load.writesAfter(System.nanoTime() - TimeUnit.HOURS.toNanos(1)) > 10);
                MariaDbServer primary = cluster.primary();
                Backend primaryBackend = backend(proxy, "primary");
                long primaryKilled = System.nanoTime();
                primary.kill();
                try {
                    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> load.writeErrorsAfter(primaryKilled).size() > 5
                            && load.readsAfter(primaryKilled + INTERVAL.toNanos()) > 100);
                } finally {
                    System.out.println("after the primary's kill: " + load.readsAfter(primaryKilled) + " reads, "
                            + load.writeErrorsAfter(primaryKilled).size() + " failed writes");
                    load.report("primary killed", primaryKilled);
                }
                assertThat(load.writeErrorsAfter(primaryKilled))
                        .as("every failed write's ERR names the primary").allMatch(e -> e.contains("primary"));
                Awaitility.await().atMost(Duration.ofSeconds(5)).until(() ->
                        primaryBackend.state() == Backend.State.SHUNNED);
                primary.start();
                long back = System.nanoTime();
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() ->
                        primaryBackend.state() == Backend.State.ONLINE && load.writesAfter(back) > 10);
                load.report("after recovery", back);
            } finally {
                load.stop();
            }
        }
    }

    private static Backend backend(ProxyServer proxy, String name) {
        return proxy.runtime().backends().stream().filter(b -> b.name().equals(name)).findFirst().orElseThrow();
    }

    /** CLIENTS threads, each reading four times and writing once per round, reconnecting after an error. */
    private static final class Load {
        private final ProxyServer proxy;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
        private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
        private final AtomicLong statements = new AtomicLong();
        private final ExecutorService threads = Executors.newFixedThreadPool(CLIENTS);
        private final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);

        Load(ProxyServer proxy) {
            this.proxy = proxy;
        }

        void start() {
            for (int i = 0; i < CLIENTS; i++) {
                threads.submit(this::run);
            }
        }

        private void run() {
            Connection connection = null;
            long round = 0;
            while (running.get() && System.nanoTime() < deadline) {
                boolean write = round++ % 5 == 4;
                try {
                    if (connection == null) {
                        connection = ProxyFixture.connect(proxy, "sluice_test", "connectTimeout=3000&socketTimeout=10000");
                    }
                    try (Statement s = connection.createStatement()) {
                        if (write) {
                            s.executeUpdate("INSERT INTO failover (at) VALUES (" + System.nanoTime() + ")");
                            outcomes.add(new Outcome(System.nanoTime(), true, 0, null));
                        } else {
                            try (ResultSet rs = s.executeQuery("SELECT @@port")) {
                                rs.next();
                                outcomes.add(new Outcome(System.nanoTime(), false, rs.getInt(1), null));
                            }
                        }
                    }
                } catch (SQLException e) {
                    String message = e.getErrorCode() + " " + e.getMessage();
                    errors.computeIfAbsent(message.length() > 140 ? message.substring(0, 140) : message,
                            k -> new LongAdder()).increment();
                    outcomes.add(new Outcome(System.nanoTime(), write, 0, message));
                    if (!usable(connection)) {
                        // The session ended (its backend died mid-statement): log in again.
                        close(connection);
                        connection = null;
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                }
                statements.incrementAndGet();
            }
            close(connection);
        }

        long readsFrom(int port) {
            return readsFrom(port, 0);
        }

        long readsFrom(int port, long afterNanos) {
            return outcomes.stream().filter(o -> !o.write() && o.error() == null && o.port() == port && o.nanos() - afterNanos > 0)
                    .count();
        }

        long readsAfter(long nanos) {
            return outcomes.stream().filter(o -> !o.write() && o.error() == null && o.nanos() - nanos > 0).count();
        }

        long writesAfter(long nanos) {
            return outcomes.stream().filter(o -> o.write() && o.error() == null && o.nanos() - nanos > 0).count();
        }

        java.util.List<String> writeErrorsAfter(long nanos) {
            return outcomes.stream().filter(o -> o.write() && o.error() != null && o.nanos() - nanos > 0)
                    .map(Outcome::error).toList();
        }

        void report(String phase, long since) {
            long failed = outcomes.stream().filter(o -> o.error() != null && o.nanos() - since > 0).count();
            long ok = outcomes.stream().filter(o -> o.error() == null && o.nanos() - since > 0).count();
            System.out.printf("%s: %d statements succeeded, %d failed since; errors seen by clients so far:%n", phase, ok, failed);
            new TreeMap<>(errors).forEach((message, count) -> System.out.printf("  %6d  %s%n", count.sum(), message));
        }

        void stop() throws InterruptedException {
            running.set(false);
            threads.shutdown();
            threads.awaitTermination(20, TimeUnit.SECONDS);
            System.out.println("load: " + statements.get() + " statements in all");
        }

        private static boolean usable(Connection connection) {
            try {
                return connection != null && connection.isValid(2);
            } catch (SQLException e) {
                return false;
            }
        }

        private static void close(Connection connection) {
            if (connection != null) {
                try {
                    connection.close();
                } catch (SQLException ignored) {
                    // the connection is already broken
                }
            }
        }
    }
}
