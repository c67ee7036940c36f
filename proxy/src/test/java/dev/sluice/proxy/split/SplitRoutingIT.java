package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.MariaDbServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Where statements go in split mode, checked with the backends' own counters. */
@ExtendWith(MariaDbClusterExtension.class)
class SplitRoutingIT {

    private static MariaDbCluster cluster;
    private static ProxyServer proxy;

    static SluiceConfig splitConfig(MariaDbCluster cluster) {
        return ProxyFixture.config(ProxyFixture.backends(cluster))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN));
    }

    @BeforeAll
    static void start(MariaDbCluster shared) throws SQLException {
        cluster = shared;
        try (Connection c = cluster.primary().openAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS sluice_test.routed (id INT PRIMARY KEY, v VARCHAR(20))");
            s.execute("REPLACE INTO sluice_test.routed VALUES (1, 'one'), (2, 'two')");
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(10));
        proxy = ProxyFixture.start(splitConfig(cluster));
    }

    @AfterAll
    static void stop() {
        proxy.close();
    }

    private static long replicaSelects() {
        return cluster.replicas().stream().mapToLong(r -> r.globalStatus("Com_select")).sum();
    }

    private static long count(MariaDbServer server, String counter) {
        return server.globalStatus(counter);
    }

    @Test
    void readsOutsideTransactionsGoToReplicasAndWritesToThePrimary() throws SQLException {
        long replicaSelectsBefore = replicaSelects();
        long primarySelectsBefore = count(cluster.primary(), "Com_select");
        long primaryInsertsBefore = count(cluster.primary(), "Com_insert");
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", "");
             Statement s = c.createStatement()) {
            for (int i = 0; i < 20; i++) {
                try (ResultSet rs = s.executeQuery("SELECT v FROM routed WHERE id = 1")) {
                    assertThat(rs.next()).isTrue();
                }
            }
            // Replicas are read_only: these would fail with ERR 1290 on one.
            s.execute("INSERT INTO routed VALUES (100, 'hundred') ON DUPLICATE KEY UPDATE v = 'hundred'");
            s.execute("DELETE FROM routed WHERE id = 100");
        }
        assertThat(replicaSelects() - replicaSelectsBefore).as("selects on replicas").isGreaterThanOrEqualTo(20);
        assertThat(count(cluster.primary(), "Com_insert") - primaryInsertsBefore).isEqualTo(1);
        assertThat(count(cluster.primary(), "Com_select") - primarySelectsBefore)
                .as("the primary ran no reads of ours").isLessThan(20);
    }

    @Test
    void aTransactionStaysOnThePrimaryAndSeesItsOwnWrites() throws SQLException {
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", "")) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("UPDATE routed SET v = 'uno' WHERE id = 1");
                try (ResultSet rs = s.executeQuery("SELECT v, @@port FROM routed WHERE id = 1")) {
                    rs.next();
                    assertThat(rs.getString(1)).isEqualTo("uno");
                    assertThat(rs.getInt(2)).isEqualTo(cluster.primary().port());
                }
            }
            c.rollback();
            c.setAutoCommit(true);
        }
    }

    @Test
    void hintsOverrideTheClassifier() throws SQLException {
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", "");
             Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("/* sluice:primary */ SELECT @@port")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(cluster.primary().port());
            }
            try (ResultSet rs = s.executeQuery("SELECT @@port")) {
                rs.next();
                assertThat(rs.getInt(1)).isNotEqualTo(cluster.primary().port());
            }
        }
    }

    @Test
    void preparedStatementsRunAcrossBackends() throws SQLException {
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", "useServerPrepStmts=true&cachePrepStmts=true");
             PreparedStatement read = c.prepareStatement("SELECT v, @@port FROM routed WHERE id = ?")) {
            java.util.Set<Integer> ports = new java.util.HashSet<>();
            for (int i = 0; i < 200; i++) {
                read.setInt(1, 2);
                try (ResultSet rs = read.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo("two");
                    ports.add(rs.getInt(2));
                }
            }
            assertThat(ports).as("the statement ran on both replicas").hasSize(2)
                    .doesNotContain(cluster.primary().port());
        }
    }
}
