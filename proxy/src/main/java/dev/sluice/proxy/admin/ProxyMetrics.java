package dev.sluice.proxy.admin;

import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.proxy.capture.CaptureControl;
import dev.sluice.proxy.capture.CaptureStats;
import dev.sluice.proxy.health.HealthChecker;
import dev.sluice.proxy.runtime.ProxyRuntime;
import dev.sluice.proxy.stats.ProxyStats;
import dev.sluice.proxy.stats.StatsObserver;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.HdrHistogram.Histogram;

/**
 * Micrometer meters for everything the proxy counts, in a Prometheus registry. Meters read the
 * live counters when scraped; per-backend meters follow the backend list (a reload adds and
 * removes them), and new error codes and pin reasons get their series at the next scrape.
 * Latency percentiles are gauges over HdrHistogram snapshots taken once per scrape; the latency
 * histograms that Prometheus can add up across proxies come from {@link LatencyHistograms}.
 */
public final class ProxyMetrics {

    private static final double[] QUANTILES = {0.5, 0.95, 0.99, 1.0};

    private final ProxyRuntime runtime;
    private final StatsObserver stats;
    private final HealthChecker health;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<Backend, List<Meter>> backendMeters = new ConcurrentHashMap<>();
    private final Map<Backend, Set<Integer>> errorCodes = new ConcurrentHashMap<>();
    /** Per backend, the latency quantiles of the run (first four) and of the last 10 s, in seconds. */
    private final Map<Backend, double[]> latencies = new ConcurrentHashMap<>();
    private final Set<String> pinReasons = new HashSet<>();

    public ProxyMetrics(ProxyRuntime runtime, StatsObserver stats, HealthChecker health) {
        this.runtime = runtime;
        this.stats = stats;
        this.health = health;
        registerGlobal();
        registry.getPrometheusRegistry().register(new LatencyHistograms(runtime, stats));
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** The Prometheus text exposition of every meter, fresh. */
    public synchronized String scrape() {
        sync();
        return registry.scrape();
    }

    private void registerGlobal() {
        Gauge.builder("sluice.client.connections", runtime, r -> r.clientConnections().get())
                .description("Client connections open now").register(registry);
        FunctionCounter.builder("sluice.client.connections.accepted", runtime, r -> r.stats().connectionsAccepted())
                .description("Client connections accepted").register(registry);
        FunctionCounter.builder("sluice.client.connections.refused", runtime, r -> r.stats().connectionsRefused())
                .description("Client connections refused (max_client_connections)").register(registry);
        FunctionCounter.builder("sluice.client.login.failures", runtime, r -> r.stats().loginFailures())
                .description("Client logins refused").register(registry);
        Gauge.builder("sluice.sessions", stats, s -> s.sessions().size()).description("Client sessions now")
                .register(registry);
        FunctionCounter.builder("sluice.statements", stats, StatsObserver::statementsToPrimary).tag("target", "primary")
                .description("Client statements by where they ran").register(registry);
        FunctionCounter.builder("sluice.statements", stats, StatsObserver::statementsToReplicas).tag("target", "replica")
                .description("Client statements by where they ran").register(registry);
        Gauge.builder("sluice.digests", stats, s -> s.digests().size()).description("Query digests kept")
                .register(registry);
        FunctionCounter.builder("sluice.digests.evicted", stats, s -> s.digests().evicted())
                .description("Query digests dropped to stay within stats.max_digests").register(registry);
        registerCapture(runtime.capture());
        registerMirror(runtime.mirror().stats());
        registerFailover();
    }

    /** What hiding a missing primary cost, and what it could not hide (docs/high-availability.md). */
    private void registerFailover() {
        ProxyStats counts = runtime.stats();
        FunctionCounter.builder("sluice.primary.waits", counts, ProxyStats::primaryWaits)
                .description("Statements that found no backend to run on and waited for one (timeouts.primary_wait)")
                .register(registry);
        FunctionCounter.builder("sluice.primary.wait.timeouts", counts, ProxyStats::primaryWaitTimeouts)
                .description("Waits for a backend that ended in an error").register(registry);
        FunctionCounter.builder("sluice.writes.refused.split_brain", counts, ProxyStats::splitBrainRefusals)
                .description("Writes that failed while more than one role auto backend was writable").register(registry);
        String retried = "Writes sent again: refused as read_only by the backend taken for the primary, or lost with"
                + " their connection and shown not to have run";
        FunctionCounter.builder("sluice.writes.retried", counts, ProxyStats::readOnlyRetries).tag("reason", "read_only")
                .description(retried).register(registry);
        FunctionCounter.builder("sluice.writes.retried", counts, ProxyStats::lostWritesRetried).tag("reason", "lost")
                .description(retried).register(registry);
        FunctionCounter.builder("sluice.writes.outcome_unknown", counts, ProxyStats::lostWritesUnknown)
                .description("Writes lost with their connection whose outcome could not be known (the client got 1927)")
                .register(registry);
        FunctionCounter.builder("sluice.transactions.replayed", counts, ProxyStats::transactionsReplayed)
                .description("Transactions lost with their connection that ran again on a new one, every answer the"
                        + " same (routing.transaction_replay)").register(registry);
        FunctionCounter.builder("sluice.transaction.replays.failed", counts, ProxyStats::transactionReplaysFailed)
                .description("Transactions lost with their connection whose replay answered otherwise or could not"
                        + " run: the session ended with 1927").register(registry);
    }

    private void registerMirror(dev.sluice.proxy.mirror.MirrorStats counts) {
        String copies = "Statements copied to the mirror's shadow: queued, dropped (queue full), compared (the shadow"
                + " answered), mismatched (its answer differed), failed (it could not answer), skipped (not comparable)";
        for (String outcome : List.of("queued", "dropped", "compared", "mismatched", "failed", "skipped")) {
            FunctionCounter.builder("sluice.mirror.statements", counts, c -> switch (outcome) {
                case "queued" -> c.queuedCount();
                case "dropped" -> c.droppedCount();
                case "compared" -> c.comparedCount();
                case "mismatched" -> c.mismatchedCount();
                case "failed" -> c.failedCount();
                default -> c.skippedCount();
            }).tag("outcome", outcome).description(copies).register(registry);
        }
    }

    private void registerCapture(CaptureControl capture) {
        CaptureStats counts = capture.stats();
        String statements = "Captured statements: queued for the writer, written to the file, or dropped (queue full, or "
                + "left behind when capture stopped on a write error)";
        FunctionCounter.builder("sluice.capture.statements", counts, CaptureStats::queuedStatements).tag("outcome", "queued")
                .description(statements).register(registry);
        FunctionCounter.builder("sluice.capture.statements", counts, CaptureStats::writtenStatements).tag("outcome", "written")
                .description(statements).register(registry);
        FunctionCounter.builder("sluice.capture.statements", counts, CaptureStats::droppedStatements).tag("outcome", "dropped")
                .description(statements).register(registry);
        FunctionCounter.builder("sluice.capture.written", counts, CaptureStats::bytesWritten).baseUnit("bytes")
                .description("Bytes capture wrote").register(registry);
        FunctionCounter.builder("sluice.capture.rotations", counts, CaptureStats::rotations)
                .description("Capture files rotated (max_file_size)").register(registry);
        FunctionCounter.builder("sluice.capture.failures", counts, CaptureStats::failures)
                .description("Times capture turned itself off (disk full, unwritable path)").register(registry);
        Gauge.builder("sluice.capture.enabled", capture, c -> c.status().running() ? 1 : 0)
                .description("1 while capture writes").register(registry);
    }

    private void sync() {
        Set<Backend> current = new HashSet<>(runtime.backends());
        for (Backend gone : new ArrayList<>(backendMeters.keySet())) {
            if (!current.contains(gone)) {
                backendMeters.remove(gone).forEach(registry::remove);
                errorCodes.remove(gone);
                latencies.remove(gone);
            }
        }
        for (Backend backend : current) {
            latencies.put(backend, quantiles(backend));
            if (!backendMeters.containsKey(backend)) {
                backendMeters.put(backend, register(backend));
            }
            Set<Integer> codes = errorCodes.computeIfAbsent(backend, b -> new HashSet<>());
            for (Integer code : backend.stats().errorsByCode().keySet()) {
                if (codes.add(code)) {
                    backendMeters.get(backend).add(FunctionCounter.builder("sluice.backend.errors", backend,
                                    b -> b.stats().errorsByCode().getOrDefault(code, 0L))
                            .tags(tags(backend)).tag("code", String.valueOf(code))
                            .description("ERR responses to client statements by error code").register(registry));
                }
            }
        }
        for (String reason : stats.pinsByReason().keySet()) {
            if (pinReasons.add(reason)) {
                FunctionCounter.builder("sluice.session.pins", stats, s -> s.pinsByReason().getOrDefault(reason, 0L))
                        .tag("reason", reason).description("Sessions that started holding their backend connection, by reason")
                        .register(registry);
            }
        }
    }

    private List<Meter> register(Backend backend) {
        Tags tags = tags(backend);
        List<Meter> meters = new ArrayList<>();
        meters.add(FunctionCounter.builder("sluice.backend.queries", backend, b -> b.stats().queries()).tags(tags)
                .description("Client statements answered by the backend").register(registry));
        meters.add(FunctionCounter.builder("sluice.backend.bytes.sent", backend, b -> b.stats().bytesToBackend()).tags(tags)
                .description("Bytes sent to the backend").register(registry));
        meters.add(FunctionCounter.builder("sluice.backend.bytes.received", backend, b -> b.stats().bytesFromBackend()).tags(tags)
                .description("Bytes received from the backend").register(registry));
        meters.add(Gauge.builder("sluice.backend.weight", backend, Backend::weight).tags(tags).register(registry));
        meters.add(Gauge.builder("sluice.backend.available", backend, b -> b.available(System.nanoTime()) ? 1 : 0)
                .tags(tags).description("1 when the backend takes new work").register(registry));
        for (Backend.State state : Backend.State.values()) {
            meters.add(Gauge.builder("sluice.backend.state", backend, b -> b.state() == state ? 1 : 0).tags(tags)
                    .tag("state", state.name()).register(registry));
        }
        meters.add(Gauge.builder("sluice.backend.sessions", backend, b -> b.activeSessions().get()).tags(tags)
                .register(registry));
        meters.add(connections(backend, tags, "open", b -> Math.max(0, b.openConnections().get())));
        meters.add(connections(backend, tags, "idle", b -> idle(b)));
        meters.add(connections(backend, tags, "in_use", b -> Math.max(0, b.openConnections().get() - idle(b))));
        meters.add(connections(backend, tags, "waiting", b -> {
            BackendPool pool = runtime.pool(b);
            return pool == null ? 0 : pool.waiting();
        }));
        meters.add(Gauge.builder("sluice.backend.connections.max", backend, b -> b.config().maxConnections()).tags(tags)
                .register(registry));
        meters.add(Gauge.builder("sluice.backend.replication.lag", backend,
                        b -> b.replicationLagSeconds() == null ? Double.NaN : b.replicationLagSeconds())
                .tags(tags).baseUnit("seconds").description("Seconds behind the primary (replicas)").register(registry));
        meters.add(Gauge.builder("sluice.backend.lagging", backend, b -> b.lagging() ? 1 : 0).tags(tags)
                .description("1 while a replica is behind max_replication_lag").register(registry));
        meters.add(Gauge.builder("sluice.backend.primary", backend, b -> b.isPrimary() ? 1 : 0).tags(tags)
                .description("1 while the backend takes writes (role auto: while it is the one writable)")
                .register(registry));
        for (int i = 0; i < QUANTILES.length; i++) {
            int index = i;
            meters.add(Gauge.builder("sluice.backend.latency", backend, b -> latency(b, index)).tags(tags)
                    .tag("quantile", String.valueOf(QUANTILES[i])).tag("window", "run").baseUnit("seconds")
                    .description("Statement latency as the proxy saw it").register(registry));
            meters.add(Gauge.builder("sluice.backend.latency", backend, b -> latency(b, QUANTILES.length + index))
                    .tags(tags).tag("quantile", String.valueOf(QUANTILES[i])).tag("window", "10s").baseUnit("seconds")
                    .description("Statement latency as the proxy saw it").register(registry));
        }
        if (health != null) {
            meters.add(FunctionCounter.builder("sluice.health.checks", backend, b -> health.health(b).checksPassed())
                    .tags(tags).tag("result", "passed").register(registry));
            meters.add(FunctionCounter.builder("sluice.health.checks", backend, b -> health.health(b).checksFailed())
                    .tags(tags).tag("result", "failed").register(registry));
        }
        return meters;
    }

    private Meter connections(Backend backend, Tags tags, String state, java.util.function.ToDoubleFunction<Backend> value) {
        return Gauge.builder("sluice.backend.connections", backend, value).tags(tags).tag("state", state)
                .description("Backend connections by state").register(registry);
    }

    private int idle(Backend backend) {
        BackendPool pool = runtime.pool(backend);
        return pool == null ? 0 : pool.idleCount();
    }

    private double latency(Backend backend, int index) {
        double[] values = latencies.get(backend);
        return values == null ? Double.NaN : values[index];
    }

    private static double[] quantiles(Backend backend) {
        double[] values = new double[QUANTILES.length * 2];
        fill(values, 0, backend.stats().latency().snapshotTotal());
        fill(values, QUANTILES.length, backend.stats().latency().snapshotRecent());
        return values;
    }

    private static void fill(double[] values, int from, Histogram histogram) {
        for (int i = 0; i < QUANTILES.length; i++) {
            values[from + i] = histogram.getTotalCount() == 0 ? Double.NaN
                    : (QUANTILES[i] == 1.0 ? histogram.getMaxValue() : histogram.getValueAtPercentile(QUANTILES[i] * 100)) / 1e6;
        }
    }

    private static Tags tags(Backend backend) {
        return Tags.of("backend", backend.name(), "role", backend.config().role().configName());
    }
}
