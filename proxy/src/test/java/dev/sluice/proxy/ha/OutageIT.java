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
import dev.sluice.proxy.health.RefusableRelay;
import dev.sluice.testkit.ClusterSpec;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Short outages hidden from clients, on a cluster of the test's own (a primary and one replica):
 * a read whose replica is killed (SIGKILL) under it runs again elsewhere; the primary killed and
 * started again within {@code timeouts.primary_wait} under writers and readers costs no client an
 * error (but for the writes in flight at the kill when one of them committed and its answer was
 * lost: then none can be shown not to have run), and no acknowledged write is lost or found twice.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 150, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OutageIT {

    private static final Duration INTERVAL = Duration.ofMillis(200);
    private static MariaDbCluster cluster;
    private static MariaDbServer primary;
    private static MariaDbServer replica;

    @BeforeAll
    static void startCluster() throws SQLException {
        cluster = MariaDbCluster.start(ClusterSpec.builder().replicas(1).build());
        primary = cluster.primary();
        replica = cluster.replicas().get(0);
        try (Connection admin = primary.openAdmin(); Statement s = admin.createStatement()) {
            s.execute(WriteLoad.CREATE);
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(30));
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    /** Split mode, fixed roles, checks every 200 ms: out after two failures, back after one pass. */
    private static SluiceConfig config(Duration primaryWait) {
        SluiceConfig config = ProxyFixture.config(ProxyFixture.backends(cluster))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN))
                .withHealth(new HealthConfig(true, INTERVAL, Duration.ofMillis(500), 2, 1, Duration.ZERO,
                        Optional.empty(), Optional.empty()));
        return config.withTimeouts(config.timeouts().withPrimaryWait(primaryWait));
    }

    private static Backend backend(ProxyServer proxy, MariaDbServer server) {
        return RoleDiscoveryIT.backend(proxy, server);
    }

    @Test
    @Order(1)
    void aReadWhoseReplicaDiesMidStatementRunsElsewhere() throws Exception {
        try (ProxyServer proxy = ProxyFixture.start(config(Duration.ofSeconds(10)));
             Connection c = ProxyFixture.connect(proxy, "sluice_test", "")) {
            CompletableFuture<Integer> port = CompletableFuture.supplyAsync(() -> {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT SLEEP(2), @@port")) {
                    rs.next();
                    return rs.getInt(2);
                } catch (SQLException e) {
                    throw new IllegalStateException(e.getErrorCode() + " " + e.getMessage(), e);
                }
            });
            try (Connection direct = replica.openAdmin(); Statement s = direct.createStatement()) {
                Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
                    try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                            + " WHERE INFO LIKE 'SELECT SLEEP(2)%'")) {
                        rs.next();
                        return rs.getInt(1) > 0;
                    }
                });
            }
            replica.kill();
            assertThat(port.get(30, TimeUnit.SECONDS)).as("the read ran again on the primary, without an error")
                    .isEqualTo(primary.port());
        } finally {
            replica.start();
            cluster.awaitReplicaCatchUp(Duration.ofSeconds(30));
        }
    }

    @Test
    @Order(2)
    void aPrimaryKilledAndBackWithinPrimaryWaitCostsNoClientAnError() throws Exception {
        try (ProxyServer proxy = ProxyFixture.start(config(Duration.ofSeconds(15)))) {
            Backend primaryBackend = backend(proxy, primary);
            long killed;
            long back;
            WriteLoad.Ledger ledger;
            try (WriteLoad load = new WriteLoad(proxy, 4, 2, 100).start()) {
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> load.writesAcknowledgedSince(0) > 300);
                killed = System.nanoTime();
                primary.kill();
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> primaryBackend.state() == Backend.State.SHUNNED);
                primary.start();
                back = System.nanoTime();
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> load.writesAcknowledgedSince(back) > 300
                        && load.readsSince(back) > 100);
                load.close();
                long firstWriteAfter = load.acknowledged().values().stream().filter(t -> t - back > 0).min(Long::compare)
                        .orElseThrow();
                System.out.printf("primary down %d ms; first write acknowledged %d ms after it was started again;"
                                + " %d statements waited for a backend, %d lost writes shown not to have run,"
                                + " %d of unknown outcome; errors seen by clients: %s%n",
                        TimeUnit.NANOSECONDS.toMillis(back - killed), TimeUnit.NANOSECONDS.toMillis(firstWriteAfter - back),
                        proxy.runtime().stats().primaryWaits(), proxy.runtime().stats().lostWritesRetried(),
                        proxy.runtime().stats().lostWritesUnknown(), load.errorCounts());
                try (Connection direct = primary.openAdmin()) {
                    ledger = load.ledger(direct);
                }
                // Usually none. A write that committed at the kill but whose answer was lost leaves a
                // transaction no client was told of: then every write in flight then may be it, and
                // each gets 1927 rather than run twice. One of them must then have run.
                assertThat(load.errors()).as("errors seen by clients").hasSizeLessThanOrEqualTo(4)
                        .allSatisfy(e -> assertThat(e.write() && e.code() == 1927
                                && e.message().contains("may or may not have run")).as(e.toString()).isTrue());
                if (!load.errors().isEmpty()) {
                    assertThat(ledger.ranThoughFailed()).as("writes of unknown outcome that ran").isNotEmpty();
                }
            }
            assertThat(ledger.lost()).as("acknowledged writes missing after the restart").isEmpty();
            assertThat(ledger.duplicated()).as("writes found twice").isEmpty();
            assertThat(ledger.unsent()).as("rows no client was told about").isEmpty();
            assertThat(proxy.runtime().stats().primaryWaits()).as("statements that waited for the primary").isPositive();
        }
    }

    /**
     * A network fault (a relay that cuts its connections) while a write runs: the server goes on and
     * commits it, so the proxy cannot show it did not run. The client gets 1927 saying so, and the
     * write is not run a second time.
     */
    @Test
    @Order(3)
    void aWriteThatMayHaveRunFailsAndIsNeverRunTwice() throws Exception {
        try (RefusableRelay relay = new RefusableRelay(primary.port())) {
            BackendConfig relayed = new BackendConfig("primary", new HostPort("127.0.0.1", relay.port()),
                    BackendConfig.Role.PRIMARY, 1, 20);
            SluiceConfig config = config(Duration.ofSeconds(10));
            try (ProxyServer proxy = ProxyFixture.start(config.withBackends(List.of(relayed, ProxyFixture.backend(replica))));
                 Connection c = ProxyFixture.connect(proxy, "sluice_test", "");
                 Connection direct = primary.openAdmin(); Statement s = direct.createStatement()) {
                CompletableFuture<SQLException> outcome = CompletableFuture.supplyAsync(() -> {
                    try (Statement insert = c.createStatement()) {
                        insert.executeUpdate("INSERT INTO " + WriteLoad.TABLE + " (client, seq, port)"
                                + " SELECT 0, 77, @@port FROM (SELECT SLEEP(1)) AS slow");
                        return null;
                    } catch (SQLException e) {
                        return e;
                    }
                });
                String running = "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE 'INSERT INTO "
                        + WriteLoad.TABLE + "%SLEEP(1)%'";
                Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                        .until(() -> count(s, running) > 0);
                relay.cut();

                SQLException error = outcome.get(30, TimeUnit.SECONDS);
                assertThat((Object) error).as("the client is told").isNotNull();
                assertThat(error.getErrorCode()).isEqualTo(1927);
                assertThat(error.getMessage()).contains("may or may not have run", "thread may still be running");
                assertThat(proxy.runtime().stats().lostWritesUnknown()).isEqualTo(1);
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> count(s, running) == 0);
                assertThat(count(s, "SELECT COUNT(*) FROM sluice_test." + WriteLoad.TABLE + " WHERE client = 0 AND seq = 77"))
                        .as("the write ran on the server after the cut, once").isEqualTo(1);
            }
        }
    }

    private static int count(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
