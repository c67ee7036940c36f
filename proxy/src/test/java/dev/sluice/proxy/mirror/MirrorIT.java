package dev.sluice.proxy.mirror;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.config.HostPort;
import dev.sluice.config.MirrorConfig;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.ClusterSpec;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.MariaDbServer;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Mirroring between two real MariaDB servers, with Connector/J as the client: the shared
 * cluster's primary serves the client, a server of its own is the shadow, with one table's data
 * and its sql_mode made different on purpose.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MirrorIT {

    private static final String SCHEMA = "mirror_it";
    private static final String CONNECTOR_J_INIT = "SELECT @@session.auto_increment_increment";

    private static MariaDbCluster cluster;
    private static MariaDbCluster shadowCluster;
    private static MariaDbServer shadow;

    @BeforeAll
    static void servers(MariaDbCluster shared) throws Exception {
        cluster = shared;
        shadowCluster = MariaDbCluster.start(ClusterSpec.builder().replicas(0).build());
        shadow = shadowCluster.primary();
        for (MariaDbServer server : List.of(cluster.primary(), shadow)) {
            try (Connection c = server.openAdmin(); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE IF NOT EXISTS " + SCHEMA);
                s.execute("CREATE OR REPLACE TABLE " + SCHEMA + ".same (id INT PRIMARY KEY, name VARCHAR(20))");
                s.execute("INSERT INTO " + SCHEMA + ".same VALUES (1, 'one'), (2, 'two'), (3, 'three')");
                s.execute("CREATE OR REPLACE TABLE " + SCHEMA + ".diff (id INT PRIMARY KEY, name VARCHAR(20))");
                s.execute("INSERT INTO " + SCHEMA + ".diff VALUES (1, 'one'), (2, "
                        + (server == shadow ? "'deux'" : "'two'") + ")");
            }
        }
        try (Connection c = shadow.openAdmin(); Statement s = c.createStatement()) {
            // New sessions on the shadow read || as concatenation, the client's server as OR.
            s.execute("SET GLOBAL sql_mode = CONCAT(@@GLOBAL.sql_mode, ',PIPES_AS_CONCAT')");
        }
    }

    @AfterAll
    static void stopShadow() {
        if (shadowCluster != null) {
            shadowCluster.close();
        }
    }

    private static SluiceConfig config(RoutingConfig.Mode mode, MirrorConfig mirror) {
        SluiceConfig config = ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary()))).withMirror(mirror);
        return config.withRouting(new RoutingConfig(mode, config.routing().balancer()));
    }

    private static MirrorConfig toShadow() {
        return MirrorConfig.to(new HostPort(shadow.host(), shadow.port()));
    }

    @ParameterizedTest
    @EnumSource(value = RoutingConfig.Mode.class)
    void findsExactlyTheStatementsWhoseAnswersDiffer(RoutingConfig.Mode mode) throws Exception {
        try (ProxyServer proxy = ProxyFixture.start(config(mode, toShadow()))) {
            MirrorStats stats = proxy.runtime().mirror().stats();
            long before = stats.comparedCount();
            try (Connection c = ProxyFixture.connect(proxy, SCHEMA, "useServerPrepStmts=false");
                 Statement s = c.createStatement()) {
                for (int i = 1; i <= 3; i++) {
                    read(s, "SELECT id, name FROM same WHERE id <= " + i + " ORDER BY id");
                    read(s, "SELECT name FROM diff WHERE id = " + (i % 2 + 1));
                    read(s, "SELECT 'a' || 'b'");
                    read(s, "SELECT COUNT(*) FROM same");
                }
                // A session's own sql_mode goes with its copies: then both servers concatenate.
                s.execute("SET SESSION sql_mode = 'PIPES_AS_CONCAT'");
                read(s, "SELECT 'c' || 'd' AS joined");
                s.execute("USE mysql");
                read(s, "SELECT COUNT(*) FROM " + SCHEMA + ".diff");
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> stats.comparedCount() - before >= 14);
            Map<String, Long> mismatched = stats.digests().stream().filter(d -> d.mismatched() > 0)
                    .collect(Collectors.toMap(MirrorDigest::text, MirrorDigest::mismatched));
            // Connector/J's own first query reads @@sql_mode, which the shadow has otherwise: a real difference.
            assertThat(mismatched.keySet()).anyMatch(text -> text.startsWith(CONNECTOR_J_INIT));
            mismatched.keySet().removeIf(text -> text.startsWith(CONNECTOR_J_INIT));
            assertThat(mismatched).containsOnlyKeys("SELECT NAME FROM diff WHERE id = ?", "SELECT ? || ?");
            MirrorDigest diff = stats.digests().stream().filter(d -> d.text().equals("SELECT NAME FROM diff WHERE id = ?"))
                    .findFirst().orElseThrow();
            assertThat(diff.mismatched()).isEqualTo(2);
            assertThat(diff.exampleSql()).isEqualTo("SELECT name FROM diff WHERE id = 2");
            assertThat(diff.exampleDifference()).isEqualTo("the same number of rows (1), other values");
            assertThat(diff.clientMillis(99)).isNotNull();
            assertThat(stats.digests()).filteredOn(d -> d.text().startsWith("SELECT ? || ? AS joined"))
                    .singleElement().satisfies(d -> assertThat(d.mismatched()).isZero());
            assertThat(stats.failedCount()).isZero();
        }
    }

    @Test
    void aStalledShadowDropsCopiesAndNeverHoldsTheClient() throws Exception {
        MirrorConfig small = toShadow().withQueue(5, MirrorConfig.DEFAULT_QUEUE_BYTES)
                .withConnections(1, Duration.ofSeconds(60));
        try (ProxyServer proxy = ProxyFixture.start(config(RoutingConfig.Mode.SESSION, small));
             Connection locker = shadow.openAdmin(); Statement lock = locker.createStatement()) {
            MirrorStats stats = proxy.runtime().mirror().stats();
            lock.execute("LOCK TABLES " + SCHEMA + ".same WRITE");
            int statements = 300;
            try (Connection c = ProxyFixture.connect(proxy, SCHEMA, "useServerPrepStmts=false");
                 Statement s = c.createStatement()) {
                for (int i = 0; i < statements; i++) {
                    read(s, "SELECT name FROM same WHERE id = " + (i % 3 + 1));
                }
            }
            // Every client statement finished while the shadow was still blocked on the lock.
            assertThat(stats.digests()).filteredOn(d -> d.text().contains("FROM same"))
                    .allMatch(d -> d.compared() + d.shadowErrors() == 0);
            assertThat(stats.droppedCount()).isGreaterThanOrEqualTo(statements - 5 - 1);
            lock.execute("UNLOCK TABLES");
            await().atMost(Duration.ofSeconds(30)).until(() -> stats.digests().stream()
                    .anyMatch(d -> d.text().contains("FROM same") && d.compared() > 0));
        }
    }

    @Test
    void aSampleCopiesAboutItsShareOfTheReads() throws Exception {
        int statements = 400;
        try (ProxyServer proxy = ProxyFixture.start(config(RoutingConfig.Mode.SESSION, toShadow().withSample(0.25)))) {
            MirrorStats stats = proxy.runtime().mirror().stats();
            try (Connection c = ProxyFixture.connect(proxy, SCHEMA, "useServerPrepStmts=false");
                 Statement s = c.createStatement()) {
                for (int i = 0; i < statements; i++) {
                    read(s, "SELECT name AS sampled FROM same WHERE id = " + (i % 3 + 1));
                }
            }
            // 100 expected; binomial(400, 0.25) leaves [60, 140] once in about 10^8 runs.
            await().atMost(Duration.ofSeconds(30)).until(() -> stats.queuedCount() == stats.comparedCount()
                    + stats.failedCount());
            assertThat(stats.droppedCount()).isZero();
            long copied = stats.digests().stream().filter(d -> d.text().contains("sampled"))
                    .mapToLong(MirrorDigest::compared).sum();
            assertThat(copied).isBetween(60L, 140L);
        }
    }

    @Test
    void aShadowThatIsDownCountsFailuresAndTheClientSeesNothing() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        MirrorConfig down = MirrorConfig.to(new HostPort("127.0.0.1", port));
        try (ProxyServer proxy = ProxyFixture.start(config(RoutingConfig.Mode.SESSION, down))) {
            MirrorStats stats = proxy.runtime().mirror().stats();
            try (Connection c = ProxyFixture.connect(proxy, SCHEMA, ""); Statement s = c.createStatement()) {
                for (int i = 0; i < 20; i++) {
                    assertThat(read(s, "SELECT COUNT(*) FROM same")).isEqualTo("3");
                }
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> stats.failedCount() >= 1);
            assertThat(stats.comparedCount()).isZero();
            assertThat(proxy.runtime().mirror().status().running()).isTrue();
        }
    }

    /** Runs a query and reads every row, as an application would; returns the first value. */
    private static String read(Statement s, String sql) throws Exception {
        String first = null;
        try (ResultSet rows = s.executeQuery(sql)) {
            while (rows.next()) {
                if (first == null) {
                    first = rows.getString(1);
                }
            }
        }
        return first;
    }
}
