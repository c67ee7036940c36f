package dev.sluice.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.AdminConfig;
import dev.sluice.config.CaptureConfig;
import dev.sluice.config.HealthConfig;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin interfaces of a proxy in split mode after a known workload: the mariadb client on the
 * SQL port, Prometheus text and JSON on the HTTP port, and /health.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AdminPortsIT {

    static final String PASSWORD = "s3cret";
    private static final int READS = 200;
    private static final int MISSING_TABLE_ERRORS = 3;

    private static ProxyServer proxy;
    private static Connection idleSession;

    static SluiceConfig config(MariaDbCluster cluster) {
        return ProxyFixture.config(ProxyFixture.backends(cluster))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN))
                .withAdmin(AdminConfig.onFreePorts("admin", PASSWORD))
                .withHealth(new HealthConfig(true, Duration.ofMillis(200), Duration.ofSeconds(1), 2, 2, Duration.ZERO,
                        Optional.empty(), Optional.empty()));
    }

    @BeforeAll
    static void start(MariaDbCluster cluster) throws Exception {
        try (Connection admin = cluster.primary().openAdmin(); Statement s = admin.createStatement()) {
            s.execute("USE sluice_test");
            s.execute("CREATE OR REPLACE TABLE sluice_test.admin_it (id INT PRIMARY KEY, v VARCHAR(20))");
            s.execute("INSERT INTO sluice_test.admin_it SELECT seq, CONCAT('v', seq) FROM seq_1_to_100");
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(30));
        proxy = ProxyFixture.start(config(cluster));
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = c.createStatement()) {
            for (int i = 0; i < READS; i++) {
                try (ResultSet rs = s.executeQuery("SELECT id, v FROM admin_it WHERE id = " + (1 + i % 100))) {
                    assertThat(rs.next()).isTrue();
                }
            }
            for (int i = 0; i < MISSING_TABLE_ERRORS; i++) {
                try {
                    s.executeQuery("SELECT * FROM no_such_table_" + i);
                } catch (SQLException expected) {
                    assertThat(expected.getErrorCode()).isEqualTo(1146);
                }
            }
        }
        idleSession = ProxyFixture.connect(proxy, "sluice_test", "");
    }

    @AfterAll
    static void stop() throws SQLException {
        if (idleSession != null) {
            idleSession.close();
        }
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void theMariadbClientQueriesTheAdminPort() throws Exception {
        var sql = proxy.admin().sqlAddress();
        AdminClients.Run version = AdminClients.cli(sql, "admin", PASSWORD, "select @@version_comment limit 1", "--batch");
        assertThat(version.exitCode()).as(version.toString()).isZero();
        assertThat(version.stdout()).isEqualTo("@@version_comment\nSluice admin\n");

        AdminClients.Run backends = AdminClients.cli(sql, "admin", PASSWORD, "SHOW BACKENDS", "--batch");
        assertThat(backends.exitCode()).as(backends.toString()).isZero();
        assertThat(backends.stdout()).startsWith("name\taddress\trole\tstate\tweight\tqueries\terrors")
                .contains("\nprimary\t").contains("\nreplica1\t").contains("\nreplica2\t");

        AdminClients.Run digests = AdminClients.cli(sql, "admin", PASSWORD,
                "SELECT digest_text, count, errors FROM digests WHERE digest_text LIKE '%admin_it%'"
                        + " ORDER BY sum_time_ms DESC LIMIT 10", "--batch", "--skip-column-names");
        assertThat(digests.exitCode()).as(digests.toString()).isZero();
        assertThat(digests.stdout()).isEqualTo("SELECT id, v FROM admin_it WHERE id = ?\t" + READS + "\t0\n");

        AdminClients.Run replicas = AdminClients.cli(sql, "admin", PASSWORD,
                "SELECT name, read_only, replication FROM backends WHERE role = 'replica' AND checks_passed > 0 ORDER BY name",
                "--batch", "--skip-column-names");
        assertThat(replicas.stdout()).as(replicas.toString()).isEqualTo("replica1\t1\trunning\nreplica2\t1\trunning\n");

        AdminClients.Run sessions = AdminClients.cli(sql, "admin", PASSWORD,
                "SELECT user, schema FROM sessions", "--batch", "--skip-column-names");
        assertThat(sessions.stdout()).as(sessions.toString()).isEqualTo("app\tsluice_test\n");

        AdminClients.Run table = AdminClients.cli(sql, "admin", PASSWORD, "SELECT backend, max FROM pools", "--table");
        assertThat(table.stdout()).as(table.toString()).contains("| backend ", "| primary ");
    }

    @Test
    void adminCommandsSteerBackends() throws Exception {
        var sql = proxy.admin().sqlAddress();
        Backend replica2 = backend("replica2");
        AdminClients.Run weight = AdminClients.cli(sql, "admin", PASSWORD, "SET BACKEND replica2 WEIGHT 3");
        assertThat(weight.exitCode()).as(weight.toString()).isZero();
        assertThat(replica2.weight()).isEqualTo(3);
        AdminClients.Run drain = AdminClients.cli(sql, "admin", PASSWORD,
                "UPDATE backends SET state = 'draining', weight = 1 WHERE name LIKE 'replica%'", "-vv");
        assertThat(drain.exitCode()).as(drain.toString()).isZero();
        assertThat(drain.stdout()).contains("2 rows affected");
        assertThat(backend("replica1").state()).isEqualTo(Backend.State.DRAINING);
        assertThat(replica2.weight()).isEqualTo(1);
        HttpResponse<String> down = AdminClients.get(proxy.admin().httpAddress(), "/health");
        assertThat(down.statusCode()).isEqualTo(503);
        assertThat(down.body()).startsWith("no replica is up: replica1 DRAINING; replica2 DRAINING");

        AdminClients.Run online = AdminClients.cli(sql, "admin", PASSWORD,
                "UPDATE backends SET state = 'ONLINE' WHERE role = 'replica'");
        assertThat(online.exitCode()).as(online.toString()).isZero();
        assertThat(AdminClients.get(proxy.admin().httpAddress(), "/health").statusCode()).isEqualTo(200);

        AdminClients.Run wrong = AdminClients.cli(sql, "admin", PASSWORD, "SET BACKEND replica9 STATE OFFLINE");
        assertThat(wrong.exitCode()).isNotZero();
        assertThat(wrong.stderr()).contains("ERROR 1231 (42000)", "No backend named 'replica9' (backends: primary, replica1, replica2)");
        AdminClients.Run shunned = AdminClients.cli(sql, "admin", PASSWORD, "SET BACKEND replica1 STATE SHUNNED");
        assertThat(shunned.stderr()).contains("SHUNNED is the health checker's");
        AdminClients.Run typo = AdminClients.cli(sql, "admin", PASSWORD, "SELEC * FROM backends");
        assertThat(typo.stderr()).contains("ERROR 1064 (42000)", "unknown statement \"SELEC\"");
        AdminClients.Run noTable = AdminClients.cli(sql, "admin", PASSWORD, "SELECT * FROM servers");
        assertThat(noTable.stderr()).contains("ERROR 1146 (42S02)", "Table 'servers' doesn't exist");
        AdminClients.Run denied = AdminClients.cli(sql, "admin", "wrong", "SHOW BACKENDS");
        assertThat(denied.exitCode()).isNotZero();
        assertThat(denied.stderr()).contains("ERROR 1045 (28000)", "Access denied for user 'admin'");
    }

    @Test
    void captureCountersReachPrometheus(MariaDbCluster cluster, @TempDir Path dir) throws Exception {
        Path file = dir.resolve("capture.jsonl");
        try (ProxyServer capturing = ProxyFixture.start(config(cluster).withCapture(CaptureConfig.jsonl(file)))) {
            try (Connection c = ProxyFixture.connect(capturing, "sluice_test", ""); Statement s = c.createStatement()) {
                for (int i = 0; i < 3; i++) {
                    s.execute("SELECT " + i);
                }
            }
            capturing.runtime().capture().disable();
            PrometheusText metrics = PrometheusText.parse(
                    AdminClients.get(capturing.admin().httpAddress(), "/metrics").body());

            assertThat(metrics.types).containsEntry("sluice_capture_statements_total", "counter");
            Map<String, Double> byOutcome = new java.util.HashMap<>();
            metrics.named("sluice_capture_statements_total").forEach(m -> byOutcome.put(m.labels().get("outcome"), m.value()));
            List<String> captured = Files.readAllLines(file);
            assertThat(captured).filteredOn(line -> line.contains("\"sql\":\"SELECT ")).hasSize(3);
            long lines = captured.size();
            assertThat(byOutcome).containsEntry("queued", (double) lines).containsEntry("written", (double) lines)
                    .containsEntry("dropped", 0.0);
            assertThat(metrics.named("sluice_capture_written_bytes_total")).singleElement()
                    .extracting(PrometheusText.Sample::value).isEqualTo((double) Files.size(file));
            assertThat(metrics.named("sluice_capture_enabled")).singleElement()
                    .extracting(PrometheusText.Sample::value).isEqualTo(0.0);
        }
    }

    @Test
    void prometheusTextHasPerBackendSeries() throws Exception {
        HttpResponse<String> response = AdminClients.get(proxy.admin().httpAddress(), "/metrics");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).get().asString().startsWith("text/plain");
        PrometheusText metrics = PrometheusText.parse(response.body());

        assertThat(metrics.types).containsEntry("sluice_backend_queries_total", "counter")
                .containsEntry("sluice_backend_latency_seconds", "gauge");
        List<PrometheusText.Sample> queries = metrics.named("sluice_backend_queries_total");
        assertThat(queries).extracting(s -> s.labels().get("backend")).containsExactlyInAnyOrder("primary", "replica1", "replica2");
        for (PrometheusText.Sample sample : queries) {
            assertThat(sample.value()).as(sample.toString()).isEqualTo((double) backend(sample.labels().get("backend")).stats().queries());
        }
        double replicaReads = queries.stream().filter(s -> s.labels().get("role").equals("replica"))
                .mapToDouble(PrometheusText.Sample::value).sum();
        assertThat(replicaReads).isGreaterThanOrEqualTo(READS + MISSING_TABLE_ERRORS);
        double errors1146 = metrics.named("sluice_backend_errors_total").stream()
                .filter(s -> "1146".equals(s.labels().get("code"))).mapToDouble(PrometheusText.Sample::value).sum();
        assertThat(errors1146).isEqualTo(MISSING_TABLE_ERRORS);
        assertThat(metrics.named("sluice_backend_latency_seconds")).anySatisfy(s -> {
            assertThat(s.labels()).containsEntry("backend", "replica1").containsEntry("quantile", "0.99")
                    .containsEntry("window", "run");
            assertThat(s.value()).isPositive();
        });
        assertThat(metrics.named("sluice_backend_connections")).extracting(s -> s.labels().get("state"))
                .contains("open", "idle", "in_use", "waiting");
        assertThat(metrics.named("sluice_statements_total")).extracting(s -> s.labels().get("target"))
                .containsExactlyInAnyOrder("primary", "replica");
        assertThat(metrics.named("sluice_health_checks_total")).anySatisfy(s -> {
            assertThat(s.labels()).containsEntry("result", "passed");
            assertThat(s.value()).isPositive();
        });
    }

    @Test
    void jsonApisAndHealth() throws Exception {
        var http = proxy.admin().httpAddress();
        List<?> backends = (List<?>) JsonTest.parse(AdminClients.get(http, "/api/backends").body());
        assertThat(backends.stream().map(b -> (Object) ((Map<?, ?>) b).get("name")).toList())
                .containsExactly("primary", "replica1", "replica2");
        Map<?, ?> primary = (Map<?, ?>) backends.get(0);
        assertThat(primary.get("role")).isEqualTo("primary");
        assertThat(primary.get("read_only")).isEqualTo(0L);
        Map<?, ?> digests = (Map<?, ?>) JsonTest.parse(AdminClients.get(http, "/api/digests?limit=1").body());
        assertThat(digests.get("evicted")).isEqualTo(0L);
        assertThat((List<?>) digests.get("digests")).hasSize(1);
        List<?> sessions = (List<?>) JsonTest.parse(AdminClients.get(http, "/api/sessions").body());
        assertThat(sessions).singleElement().satisfies(s -> assertThat(((Map<?, ?>) s).get("user")).isEqualTo("app"));
        Map<?, ?> overview = (Map<?, ?>) JsonTest.parse(AdminClients.get(http, "/api/overview").body());
        assertThat(overview.get("mode")).isEqualTo("split");
        assertThat(((List<?>) overview.get("backends")).stream().map(b -> (Object) ((Map<?, ?>) b).get("name")).toList())
                .containsExactly("primary", "replica1", "replica2");
        assertThat(((List<?>) overview.get("backends")).stream().mapToLong(b -> (Long) ((Map<?, ?>) b).get("queries")).sum())
                .isGreaterThanOrEqualTo(READS + MISSING_TABLE_ERRORS);
        assertThat(overview.get("sessions")).isEqualTo(1L);
        assertThat((List<?>) overview.get("session_rows")).singleElement()
                .satisfies(s -> assertThat(((Map<?, ?>) s).get("user")).isEqualTo("app"));
        assertThat((List<?>) ((Map<?, ?>) overview.get("digests")).get("top")).anySatisfy(d ->
                assertThat(((Map<?, ?>) d).get("text")).isEqualTo("SELECT id, v FROM admin_it WHERE id = ?"));
        HttpResponse<String> page = AdminClients.get(http, "/");
        assertThat(page.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
        assertThat(page.body()).contains("<title>Sluice</title>", "fetch('api/overview'");
        Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(AdminClients.get(http, "/health").statusCode()).isEqualTo(200));
        assertThat(AdminClients.get(http, "/nope").statusCode()).isEqualTo(404);
    }

    private static Backend backend(String name) {
        return proxy.runtime().backends().stream().filter(b -> b.name().equals(name)).findFirst().orElseThrow();
    }
}
