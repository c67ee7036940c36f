package dev.sluice.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Grafana dashboard in docs/grafana cannot drift from the code: every metric its queries name
 * is on a running proxy's /metrics, with every label the queries select, group or join by, and
 * every literal label value they match (instance and job are Prometheus' own target labels). The
 * proxy runs split mode in front of the testkit primary and replicas, with a workload that makes
 * the series that only appear on an event (an error code, a pin reason, a digest).
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GrafanaDashboardIT {

    static final Path DASHBOARD = Path.of("..", "docs", "grafana", "sluice-dashboard.json");
    private static final Set<String> TARGET_LABELS = Set.of("instance", "job");

    @Test
    void theDashboardAsksForWhatIssue19Names() throws Exception {
        List<String> exprs = DashboardQueries.read(DASHBOARD).stream().map(DashboardQueries.Query::expr).toList();
        assertThat(exprs).as("per-backend qps").anyMatch(e -> e.contains("rate(sluice_backend_queries_total{"));
        assertThat(exprs).as("errors").anyMatch(e -> e.contains("rate(sluice_backend_errors_total{"));
        for (String q : List.of("0.5", "0.99")) {
            assertThat(exprs).as("p%s over the backends' buckets", q).anyMatch(e -> e.startsWith("histogram_quantile(" + q
                    + ", sum by (backend, le) (rate(" + LatencyHistograms.BACKEND + "_bucket{"));
        }
        assertThat(exprs).as("pool use").anyMatch(e -> e.contains("sluice_backend_connections{"));
        assertThat(exprs).as("pins by reason").anyMatch(e -> e.contains("sum by (reason) (rate(sluice_session_pins_total{"));
        assertThat(exprs).as("replication lag").anyMatch(e -> e.contains("sluice_backend_replication_lag_seconds{"));
        assertThat(exprs).as("top digests").anyMatch(e -> e.contains(LatencyHistograms.DIGEST + "_sum{")
                && e.contains(LatencyHistograms.DIGEST_INFO + "{"));
    }

    @Test
    void everyMetricAndLabelTheDashboardUsesIsExposed(MariaDbCluster cluster) throws Exception {
        assertThat(DASHBOARD).exists();
        List<DashboardQueries.Query> queries = DashboardQueries.read(DASHBOARD);
        assertThat(queries).hasSizeGreaterThan(10);
        try (Connection admin = cluster.primary().openAdmin(); Statement s = admin.createStatement()) {
            s.execute("CREATE OR REPLACE TABLE sluice_test.dashboard_it (id INT PRIMARY KEY)");
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(30));
        try (ProxyServer proxy = ProxyFixture.start(AdminPortsIT.config(cluster))) {
            runWorkload(proxy);
            var http = proxy.admin().httpAddress();
            // The health checks fill in the replicas' lag; the pins and errors are there at once.
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> PrometheusText.parse(
                    AdminClients.get(http, "/metrics").body()).named("sluice_backend_replication_lag_seconds").stream()
                    .anyMatch(s -> !Double.isNaN(s.value())));
            PrometheusText metrics = PrometheusText.parse(AdminClients.get(http, "/metrics").body());
            Map<String, List<Map<String, String>>> exposed = new HashMap<>();
            for (PrometheusText.Sample sample : metrics.samples) {
                exposed.computeIfAbsent(sample.name(), k -> new ArrayList<>()).add(sample.labels());
            }
            List<String> problems = new ArrayList<>();
            for (DashboardQueries.Query query : queries) {
                check(query, exposed, problems);
            }
            assertThat(problems).as("what the dashboard asks of /metrics and does not get (exposed: %s)",
                    new java.util.TreeSet<>(exposed.keySet())).isEmpty();
        }
    }

    private static void check(DashboardQueries.Query query, Map<String, List<Map<String, String>>> exposed,
                              List<String> problems) {
        String where = "panel \"" + query.panel() + "\": ";
        Set<String> labelsInQuery = new HashSet<>(TARGET_LABELS);
        for (DashboardQueries.Selector selector : query.selectors()) {
            List<Map<String, String>> samples = exposed.get(selector.metric());
            if (!selector.metric().startsWith("sluice_")) {
                problems.add(where + selector.metric() + " is not one of the proxy's metrics");
                continue;
            }
            if (samples == null) {
                problems.add(where + "no metric " + selector.metric());
                continue;
            }
            samples.forEach(labels -> labelsInQuery.addAll(labels.keySet()));
            for (DashboardQueries.LabelMatcher matcher : selector.matchers()) {
                if (TARGET_LABELS.contains(matcher.label())) {
                    continue;
                }
                if (samples.stream().noneMatch(labels -> labels.containsKey(matcher.label()))) {
                    problems.add(where + selector.metric() + " has no label " + matcher.label());
                } else if (!matcher.value().contains("$") && (matcher.op().equals("=") || matcher.op().equals("=~"))) {
                    Pattern value = Pattern.compile(matcher.op().equals("=") ? Pattern.quote(matcher.value()) : matcher.value());
                    if (samples.stream().noneMatch(labels -> labels.containsKey(matcher.label())
                            && value.matcher(labels.get(matcher.label())).matches())) {
                        problems.add(where + selector.metric() + " has no " + matcher.label() + " matching "
                                + matcher.op() + "\"" + matcher.value() + "\"");
                    }
                }
            }
        }
        for (String label : query.groupingLabels()) {
            if (!labelsInQuery.contains(label)) {
                problems.add(where + "no metric of the query has label " + label + ": " + query.expr());
            }
        }
    }

    /** Reads, a write, a failed statement (an error code) and a user variable (a pin in split mode). */
    private static void runWorkload(ProxyServer proxy) throws SQLException {
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = c.createStatement()) {
            s.execute("REPLACE INTO dashboard_it VALUES (1)");
            for (int i = 0; i < 20; i++) {
                s.executeQuery("SELECT id FROM dashboard_it WHERE id = " + i).close();
            }
            try {
                s.executeQuery("SELECT * FROM no_such_table_dashboard_it");
            } catch (SQLException expected) {
                assertThat(expected.getErrorCode()).isEqualTo(1146);
            }
            s.execute("SET @pinned = 1");
            s.executeQuery("SELECT @pinned").close();
        }
    }
}
