package dev.sluice.proxy.admin;

import dev.sluice.proxy.runtime.ProxyRuntime;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.LatencyBuckets;
import dev.sluice.proxy.sql.Digest;
import dev.sluice.proxy.stats.DigestStats;
import dev.sluice.proxy.stats.StatsObserver;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Latency histograms for Prometheus (cumulative {@code _bucket{le}}, {@code _sum}, {@code _count}),
 * per backend and for the digests with the most total time ({@code stats.metrics_digests} of
 * them, so the series stay bounded however many digests the table keeps), plus
 * {@code sluice_digest_info} to put a digest's text beside its hash. Read from the live buckets at
 * each scrape: nothing to register when backends or digests come and go. Micrometer has no meter
 * that exposes buckets counted elsewhere, hence a collector of the Prometheus client's own.
 */
final class LatencyHistograms implements MultiCollector {

    static final String BACKEND = "sluice_backend_query_duration_seconds";
    static final String DIGEST = "sluice_digest_query_duration_seconds";
    /** An info metric: the client library adds {@code _info} to this name. */
    private static final String DIGEST_INFO_NAME = "sluice_digest";
    static final String DIGEST_INFO = DIGEST_INFO_NAME + "_info";
    /** Label values are kept in every sample Prometheus stores; the digests table has the full text. */
    static final int MAX_TEXT_LABEL = 200;
    private static final double[] BOUNDS = withInfinity(LatencyBuckets.boundsSeconds());

    private final ProxyRuntime runtime;
    private final StatsObserver stats;

    LatencyHistograms(ProxyRuntime runtime, StatsObserver stats) {
        this.runtime = runtime;
        this.stats = stats;
    }

    @Override
    public MetricSnapshots collect() {
        HistogramSnapshot.Builder backends = HistogramSnapshot.builder().name(BACKEND)
                .help("Client statements' latency by backend, from the statement sent to the end of its response");
        for (Backend backend : runtime.backends()) {
            backends.dataPoint(point(backend.stats().latency().buckets(),
                    Labels.of("backend", backend.name(), "role", backend.config().role().configName())));
        }
        HistogramSnapshot.Builder digests = HistogramSnapshot.builder().name(DIGEST)
                .help("Client statements' latency by digest, for the stats.metrics_digests digests with the most total time");
        InfoSnapshot.Builder info = InfoSnapshot.builder().name(DIGEST_INFO_NAME)
                .help("1 for each digest on " + DIGEST + ", with its normalized text");
        for (DigestStats digest : top(runtime.config().stats().metricsDigests())) {
            String hex = Digest.hex(digest.fingerprint());
            digests.dataPoint(point(digest.buckets(), Labels.of("digest", hex)));
            info.dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder()
                    .labels(Labels.of("digest", hex, "digest_text", Json.shorten(digest.text(), MAX_TEXT_LABEL))).build());
        }
        return MetricSnapshots.of(backends.build(), digests.build(), info.build());
    }

    @Override
    public List<String> getPrometheusNames() {
        return List.of(BACKEND, DIGEST, DIGEST_INFO_NAME);
    }

    private List<DigestStats> top(int limit) {
        if (limit == 0) {
            return List.of();
        }
        record Ranked(DigestStats digest, long sumNanos, long count) {
        }
        return stats.digests().snapshot().stream()
                .map(d -> new Ranked(d, d.sumNanos(), d.count()))
                .filter(r -> r.count() > 0)
                .sorted(Comparator.comparingLong(Ranked::sumNanos).reversed()
                        .thenComparingLong(r -> r.digest().fingerprint()))
                .limit(limit)
                .map(Ranked::digest)
                .toList();
    }

    private static HistogramSnapshot.HistogramDataPointSnapshot point(LatencyBuckets buckets, Labels labels) {
        // The sum is read after the counts: a statement recorded in between adds to the sum only,
        // a difference of one statement's time that the next scrape makes good.
        long[] counts = buckets.counts();
        return HistogramSnapshot.HistogramDataPointSnapshot.builder()
                .labels(labels)
                .classicHistogramBuckets(ClassicHistogramBuckets.of(BOUNDS, counts))
                .sum(buckets.sumNanos() / 1e9)
                .build();
    }

    private static double[] withInfinity(double[] bounds) {
        double[] all = Arrays.copyOf(bounds, bounds.length + 1);
        all[bounds.length] = Double.POSITIVE_INFINITY;
        return all;
    }
}
