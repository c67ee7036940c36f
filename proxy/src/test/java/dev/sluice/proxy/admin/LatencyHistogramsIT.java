package dev.sluice.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.AdminConfig;
import dev.sluice.config.StatsConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The latency histograms on /metrics count real statements through the proxy: each statement's
 * latency as the proxy saw it lies between what the server was told to take (SLEEP) and what the
 * client measured around it, so for every bucket the count must lie between the statements the
 * client saw at or below its bound and the statements that could have been. Slow statements
 * (SLEEP 0.06 s and 0.3 s) pin the check down where a fast one could land anywhere below.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LatencyHistogramsIT {

    private static final String BACKEND_BUCKET = LatencyHistograms.BACKEND + "_bucket";
    private static final String DIGEST_BUCKET = LatencyHistograms.DIGEST + "_bucket";

    /** One statement: the least latency the server guarantees and the most the client measured, in seconds. */
    private record Timed(String sql, double atLeast, double atMost) {
    }

    @Test
    void bucketsCountStatementsWithinWhatServerAndClientMeasured(MariaDbCluster cluster) throws Exception {
        var config = ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary())))
                .withAdmin(AdminConfig.onFreePorts("admin", "s3cret"))
                .withStats(new StatsConfig(true, StatsConfig.DEFAULT_MAX_DIGESTS, 2));
        try (ProxyServer proxy = ProxyFixture.start(config);
             Connection c = ProxyFixture.connect(proxy, "sluice_test", "");
             Statement s = c.createStatement()) {
            PrometheusText before = scrape(proxy);
            List<Timed> statements = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                statements.add(run(s, "SELECT " + i, 0));
            }
            for (int i = 0; i < 4; i++) {
                statements.add(run(s, "SELECT SLEEP(0.06)", 0.06));
            }
            for (int i = 0; i < 3; i++) {
                statements.add(run(s, "SELECT SLEEP(0.3)", 0.3));
            }
            for (int i = 0; i < 3; i++) {
                statements.add(run(s, "SELECT " + i + ", SLEEP(0.15)", 0.15));
            }
            PrometheusText after = scrape(proxy);

            assertThat(after.types).containsEntry(LatencyHistograms.BACKEND, "histogram")
                    .containsEntry(LatencyHistograms.DIGEST, "histogram");
            Map<String, String> primary = Map.of("backend", "primary", "role", "primary");
            Map<Double, Double> buckets = delta(before, after, BACKEND_BUCKET, primary);
            assertWithin(buckets, statements);
            assertThat(delta(before, after, LatencyHistograms.BACKEND + "_count", primary)).containsOnlyKeys(-1.0)
                    .containsValue((double) statements.size());
            double sum = delta(before, after, LatencyHistograms.BACKEND + "_sum", primary).get(-1.0);
            assertThat(sum).isBetween(statements.stream().mapToDouble(Timed::atLeast).sum(),
                    statements.stream().mapToDouble(Timed::atMost).sum());
            assertThat(value(after, LatencyHistograms.BACKEND + "_count", primary))
                    .as("the histogram's count is the queries counter").isEqualTo(value(after, "sluice_backend_queries_total", primary));

            // stats.metrics_digests: 2, so of the digests (these three, and the driver's own at
            // connect) only the two with the most total time show: at least 1.14 s and 0.45 s.
            String sleeps = digestOf(after, "SELECT SLEEP(?)");
            String selectSleeps = digestOf(after, "SELECT ?, SLEEP(?)");
            assertThat(after.named(LatencyHistograms.DIGEST_INFO)).extracting(m -> m.labels().get("digest"))
                    .containsExactlyInAnyOrder(sleeps, selectSleeps);
            assertThat(after.named(DIGEST_BUCKET).stream().map(m -> m.labels().get("digest")).distinct())
                    .containsExactlyInAnyOrder(sleeps, selectSleeps);
            List<Timed> sleeping = statements.stream().filter(t -> t.sql().startsWith("SELECT SLEEP")).toList();
            assertWithin(delta(before, after, DIGEST_BUCKET, Map.of("digest", sleeps)), sleeping);
            assertThat(after.named(DIGEST_BUCKET).stream().map(m -> m.labels().get("le")).collect(Collectors.toSet()))
                    .as("digests and backends share their bounds, so they compare and add up")
                    .isEqualTo(after.named(BACKEND_BUCKET).stream().map(m -> m.labels().get("le")).collect(Collectors.toSet()));
        }
    }

    private static Timed run(Statement s, String sql, double atLeast) throws Exception {
        long start = System.nanoTime();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                rs.getString(1);
            }
        }
        return new Timed(sql, atLeast, (System.nanoTime() - start) / 1e9);
    }

    /** For each bound: at least the statements the client saw within it, at most those that could be. */
    private static void assertWithin(Map<Double, Double> cumulative, List<Timed> statements) {
        assertThat(cumulative).containsKey(Double.POSITIVE_INFINITY);
        assertThat(cumulative.get(Double.POSITIVE_INFINITY)).isEqualTo((double) statements.size());
        double previous = 0;
        for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
            double le = bucket.getKey();
            long surely = statements.stream().filter(t -> t.atMost() <= le).count();
            long possibly = statements.stream().filter(t -> t.atLeast() <= le).count();
            assertThat(bucket.getValue()).as("le=%s of %s", le, cumulative).isBetween((double) surely, (double) possibly)
                    .isGreaterThanOrEqualTo(previous);
            previous = bucket.getValue();
        }
    }

    /** The samples of {@code name} with {@code labels}, after less before, by le (-1 for samples without one). */
    private static Map<Double, Double> delta(PrometheusText before, PrometheusText after, String name,
                                             Map<String, String> labels) {
        Map<Double, Double> result = new TreeMap<>();
        for (PrometheusText.Sample sample : after.named(name)) {
            if (sample.labels().entrySet().containsAll(labels.entrySet())) {
                result.merge(le(sample), sample.value(), Double::sum);
            }
        }
        for (PrometheusText.Sample sample : before.named(name)) {
            if (sample.labels().entrySet().containsAll(labels.entrySet())) {
                result.merge(le(sample), -sample.value(), Double::sum);
            }
        }
        return result;
    }

    private static double le(PrometheusText.Sample sample) {
        String le = sample.labels().get("le");
        return le == null ? -1 : le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
    }

    private static double value(PrometheusText metrics, String name, Map<String, String> labels) {
        return metrics.named(name).stream().filter(m -> m.labels().entrySet().containsAll(labels.entrySet()))
                .mapToDouble(PrometheusText.Sample::value).sum();
    }

    private static String digestOf(PrometheusText metrics, String text) {
        return metrics.named(LatencyHistograms.DIGEST_INFO).stream().filter(m -> m.labels().get("digest_text").equals(text))
                .map(m -> m.labels().get("digest")).findFirst()
                .orElseThrow(() -> new AssertionError("no digest " + text + " in " + metrics.named(LatencyHistograms.DIGEST_INFO)));
    }

    private static PrometheusText scrape(ProxyServer proxy) throws Exception {
        var response = AdminClients.get(proxy.admin().httpAddress(), "/metrics");
        assertThat(response.statusCode()).isEqualTo(200);
        return PrometheusText.parse(response.body());
    }
}
