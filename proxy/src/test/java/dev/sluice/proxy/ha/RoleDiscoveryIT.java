package dev.sluice.proxy.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HealthConfig;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.admin.Table;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.testkit.ClusterSpec;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * Roles read from @@read_only ({@code routing.discover: read_only}) on a cluster of the test's own,
 * and failovers done elsewhere, by hand as a DBA does them (read_only on the old primary, wait for
 * the replica, STOP SLAVE; RESET SLAVE ALL; read_only off on it, the others pointed at it): writes
 * follow, within two health intervals under load, and no client ever sees a write refused as
 * read_only, loses an acknowledged write or finds one twice. The tests run in order: the third
 * moves the primary to replica1, the fourth moves it back under load.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 150, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RoleDiscoveryIT {

    private static MariaDbCluster cluster;
    private static MariaDbServer primary;
    private static MariaDbServer replica1;
    private static MariaDbServer replica2;

    @BeforeAll
    static void startCluster() throws SQLException {
        cluster = MariaDbCluster.start(ClusterSpec.builder().replicas(2).build());
        primary = cluster.primary();
        replica1 = cluster.replicas().get(0);
        replica2 = cluster.replicas().get(1);
        try (Connection admin = primary.openAdmin(); Statement s = admin.createStatement()) {
            s.execute(WriteLoad.CREATE);
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(30));
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    /** Every backend of the cluster with role auto: the proxy is told nothing about who is the primary. */
    static SluiceConfig discovering(MariaDbCluster cluster, Duration interval, Duration primaryWait, Optional<String> preferred) {
        List<BackendConfig> auto = ProxyFixture.backends(cluster).stream().map(b -> new BackendConfig(b.name(), b.address(),
                BackendConfig.Role.AUTO, b.weight(), b.maxConnections())).toList();
        SluiceConfig base = ProxyFixture.config(List.of());
        return base.withHealth(new HealthConfig(true, interval, Duration.ofSeconds(1), 2, 1, Duration.ZERO,
                        Optional.empty(), Optional.empty()))
                .withBackends(auto)
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN)
                        .withDiscover(RoutingConfig.Discover.READ_ONLY, preferred))
                .withTimeouts(base.timeouts().withPrimaryWait(primaryWait));
    }

    static Backend backend(ProxyServer proxy, MariaDbServer server) {
        return proxy.runtime().backends().stream().filter(b -> b.name().equals(server.name())).findFirst().orElseThrow();
    }

    /** Writes one row through the proxy; returns the port of the server that ran it. */
    static int write(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.executeUpdate("INSERT INTO " + WriteLoad.TABLE + " (client, seq, port) VALUES (0, 0, @@port)");
            try (ResultSet rs = s.executeQuery("SELECT port FROM " + WriteLoad.TABLE + " WHERE id = LAST_INSERT_ID()"
                    + " /* sluice:primary */")) {
                assertThat(rs.next()).isTrue();
                return rs.getInt(1);
            }
        }
    }

    /** The switchover a DBA does by hand, in the safe order: no write acknowledged by the old primary is lost. */
    static void switchOver(MariaDbServer from, MariaDbServer to, MariaDbServer... others) {
        from.setReadOnly(true);
        to.awaitApplied(from, Duration.ofSeconds(30));
        to.promote();
        for (MariaDbServer other : others) {
            other.replicateFrom(to);
        }
        from.replicateFrom(to);
    }

    @Test
    @Order(1)
    void theWritableBackendIsThePrimaryAndTheOthersReplicas() throws Exception {
        try (ProxyServer proxy = ProxyFixture.start(discovering(cluster, Duration.ofMillis(200), Duration.ofSeconds(5),
                Optional.empty()));
             Connection c = ProxyFixture.connect(proxy, "sluice_test", "")) {
            assertThat(write(c)).as("the first write waits for the first checks, then runs on the writable one")
                    .isEqualTo(primary.port());
            Table backends = proxy.admin().tables().backends();
            Map<String, Object> roles = new HashMap<>();
            for (List<Object> row : backends.rows()) {
                roles.put((String) row.get(backends.indexOf("name")), row.get(backends.indexOf("role")));
            }
            assertThat(roles).containsEntry("primary", "primary (auto)").containsEntry("replica1", "replica (auto)")
                    .containsEntry("replica2", "replica (auto)");
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT @@port")) {
                rs.next();
                assertThat(rs.getInt(1)).as("a read goes to a replica").isIn(replica1.port(), replica2.port());
            }
        }
    }

    @Test
    @Order(2)
    void twoWritableBackendsTakeNoWritesUnlessOneIsPreferred() throws Exception {
        try (ProxyServer proxy = ProxyFixture.start(discovering(cluster, Duration.ofMillis(200), Duration.ofMillis(300),
                Optional.empty()));
             ProxyServer preferring = ProxyFixture.start(discovering(cluster, Duration.ofMillis(200), Duration.ofMillis(300),
                     Optional.of("primary")));
             Connection c = ProxyFixture.connect(proxy, "sluice_test", "");
             Connection p = ProxyFixture.connect(preferring, "sluice_test", "")) {
            assertThat(write(c)).isEqualTo(primary.port());
            replica2.setReadOnly(false);
            try {
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> proxy.runtime().splitBrain());
                SQLException refused = catchThrowableOfType(SQLException.class, () -> write(c));
                assertThat((Object) refused).as("the write is refused").isNotNull();
                assertThat(refused.getErrorCode()).isEqualTo(9001);
                assertThat(refused.getMessage()).contains("primary, replica2 all have read_only off",
                        "routing.preferred_primary", "after waiting timeouts.primary_wait (300 ms)");
                assertThat(proxy.runtime().stats().splitBrainRefusals()).isEqualTo(1);
                assertThat(proxy.admin().tables().global().rows()).anyMatch(row -> row.get(0).equals("writes_refused_split_brain")
                        && ((Number) row.get(1)).longValue() == 1);
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> backend(preferring, replica2).state()
                        == Backend.State.ONLINE && preferring.runtime().noPrimaryReason() == null);
                assertThat(write(p)).as("the preferred one takes the writes").isEqualTo(primary.port());
            } finally {
                replica2.setReadOnly(true);
            }
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> proxy.runtime().noPrimaryReason() == null);
            assertThat(write(c)).isEqualTo(primary.port());
        }
    }

    /**
     * With checks an hour apart, only the write itself can tell the proxy: the old primary refuses it
     * as read_only, the proxy checks every backend at once and runs the write on the new primary.
     */
    @Test
    @Order(3)
    void aWriteRefusedAsReadOnlyRunsOnTheNewPrimary() throws Exception {
        try (ProxyServer proxy = ProxyFixture.start(discovering(cluster, Duration.ofHours(1), Duration.ofSeconds(5),
                Optional.empty()));
             Connection c = ProxyFixture.connect(proxy, "sluice_test", "")) {
            assertThat(write(c)).isEqualTo(primary.port());
            switchOver(primary, replica1, replica2);

            long before = System.nanoTime();
            assertThat(write(c)).as("the write the old primary refused ran on the new one").isEqualTo(replica1.port());
            System.out.printf("write refused as read_only ran on the new primary after %d ms%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - before));
            assertThat(proxy.runtime().stats().readOnlyRetries()).isEqualTo(1);
            assertThat(backend(proxy, replica1).isPrimary()).isTrue();
            assertThat(backend(proxy, primary).isPrimary()).isFalse();
        }
    }

    @Test
    @Order(4)
    void writesFollowASwitchoverUnderLoadWithinTwoIntervals() throws Exception {
        Duration interval = Duration.ofMillis(500);
        try (ProxyServer proxy = ProxyFixture.start(discovering(cluster, interval, Duration.ofSeconds(10), Optional.empty()))) {
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> backend(proxy, replica1).isPrimary());
            long promoted;
            WriteLoad.Ledger ledger;
            try (WriteLoad load = new WriteLoad(proxy, 4, 2, 100).start()) {
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> load.writesAcknowledgedSince(0) > 100);
                replica1.setReadOnly(true);
                primary.awaitApplied(replica1, Duration.ofSeconds(30));
                primary.promote();
                promoted = System.nanoTime();
                replica2.replicateFrom(primary);
                replica1.replicateFrom(primary);
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> load.writesAcknowledgedSince(promoted) > 200
                        && load.readsSince(promoted) > 200);
                load.close();
                System.out.println("errors seen by clients: " + load.errorCounts());
                assertThat(load.errors()).as("errors seen by clients").isEmpty();
                try (Connection direct = primary.openAdmin()) {
                    ledger = load.ledger(direct);
                    long firstOnNewPrimary = firstAcknowledgedOn(load, direct, primary.port());
                    System.out.printf("first write on the new primary acknowledged %d ms after its promotion;"
                                    + " %d writes refused as read_only ran again; rows by port %s%n",
                            TimeUnit.NANOSECONDS.toMillis(firstOnNewPrimary - promoted),
                            proxy.runtime().stats().readOnlyRetries(), ledger.rowsByPort());
                    assertThat(Duration.ofNanos(firstOnNewPrimary - promoted)).as("writes on the new primary after")
                            .isLessThanOrEqualTo(interval.multipliedBy(2));
                }
            }
            assertThat(ledger.lost()).as("acknowledged writes missing on the new primary").isEmpty();
            assertThat(ledger.duplicated()).as("writes found twice").isEmpty();
            assertThat(ledger.unsent()).as("rows no client was told about").isEmpty();
            // The replicas' lag is read from their new source, the demoted primary's included.
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> List.of(replica1, replica2).stream()
                    .map(r -> proxy.admin().health().health(backend(proxy, r)))
                    .allMatch(h -> "running".equals(h.replication())));
            assertThat(backend(proxy, replica1).replicationLagSeconds()).isNotNull();
            assertThat(backend(proxy, replica1).roleName()).isEqualTo("replica (auto)");
            assertThat(backend(proxy, primary).roleName()).isEqualTo("primary (auto)");
        }
    }

    /** When the first write that the new primary ran was acknowledged. */
    private static long firstAcknowledgedOn(WriteLoad load, Connection server, int port) throws SQLException {
        Map<String, Long> acked = load.acknowledged();
        long first = Long.MAX_VALUE;
        try (Statement s = server.createStatement();
             ResultSet rs = s.executeQuery("SELECT client, seq FROM sluice_test." + WriteLoad.TABLE + " WHERE port = " + port
                     + " AND client > 0")) {
            while (rs.next()) {
                Long at = acked.get(rs.getInt(1) + "-" + rs.getInt(2));
                if (at != null && at < first) {
                    first = at;
                }
            }
        }
        return first;
    }
}
