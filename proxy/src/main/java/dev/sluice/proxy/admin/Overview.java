package dev.sluice.proxy.admin;

import dev.sluice.proxy.runtime.ProxyRuntime;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.proxy.sql.Digest;
import dev.sluice.proxy.stats.DigestStats;
import dev.sluice.proxy.stats.SessionRow;
import dev.sluice.proxy.stats.StatsObserver;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * {@code /api/overview}: what the live page shows, in one answer small enough to ask for every
 * second: per backend its counters (the page turns them into rates), state, pool and latency
 * of the last 10 s; the top digests; the session count and the newest sessions. Counters, not
 * rates, so that any number of viewers can poll without the proxy keeping state for each.
 */
final class Overview {

    static final int TOP_DIGESTS = 10;
    static final int SESSIONS_SHOWN = 20;
    private static final int MAX_TEXT = 300;
    private static final long SNAPSHOT_TIMEOUT_MILLIS = 500;

    private final ProxyRuntime runtime;
    private final StatsObserver stats;

    Overview(ProxyRuntime runtime, StatsObserver stats) {
        this.runtime = runtime;
        this.stats = stats;
    }

    Map<String, Object> build() {
        Map<String, Object> body = new LinkedHashMap<>();
        // Monotonic, for the page's rates: a wall clock step would make one rate absurd.
        body.put("clock_ms", System.nanoTime() / 1_000_000);
        body.put("time_ms", System.currentTimeMillis());
        body.put("mode", runtime.config().routing().mode().configName());
        body.put("client_connections", runtime.clientConnections().get());
        body.put("sessions", stats.sessions().size());
        body.put("statements_to_primary", stats.statementsToPrimary());
        body.put("statements_to_replicas", stats.statementsToReplicas());
        body.put("backends", backends());
        body.put("digests", digests());
        body.put("session_rows", sessions());
        return body;
    }

    private List<Map<String, Object>> backends() {
        long now = System.nanoTime();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Backend backend : runtime.backends()) {
            BackendPool pool = runtime.pool(backend);
            int open = Math.max(0, backend.openConnections().get());
            int idle = pool == null ? 0 : pool.idleCount();
            Histogram recent = backend.stats().latency().snapshotRecent();
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", backend.name());
            row.put("address", backend.config().address().toString());
            row.put("role", backend.config().role().configName());
            row.put("state", backend.state().name());
            row.put("available", backend.available(now));
            row.put("weight", backend.weight());
            row.put("queries", backend.stats().queries());
            row.put("errors", backend.stats().errors());
            row.put("conn_in_use", Math.max(0, open - idle));
            row.put("conn_idle", idle);
            row.put("conn_waiting", pool == null ? 0 : pool.waiting());
            row.put("conn_max", backend.config().maxConnections());
            row.put("sessions", backend.activeSessions().get());
            row.put("p50_ms", millis(recent, 50));
            row.put("p99_ms", millis(recent, 99));
            row.put("replication_lag_s", backend.isPrimary() ? null : backend.replicationLagSeconds());
            row.put("lagging", backend.lagging());
            rows.add(row);
        }
        return rows;
    }

    private Map<String, Object> digests() {
        record Ranked(DigestStats digest, long sumNanos, long count) {
        }
        List<Map<String, Object>> top = new ArrayList<>();
        stats.digests().snapshot().stream()
                .map(d -> new Ranked(d, d.sumNanos(), d.count()))
                .filter(r -> r.count() > 0)
                .sorted(Comparator.comparingLong(Ranked::sumNanos).reversed())
                .limit(TOP_DIGESTS)
                .forEach(r -> {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("digest", Digest.hex(r.digest().fingerprint()));
                    row.put("text", Json.shorten(r.digest().text(), MAX_TEXT));
                    row.put("count", r.count());
                    row.put("errors", r.digest().errors());
                    row.put("sum_time_ms", r.sumNanos() / 1e6);
                    row.put("avg_time_ms", r.sumNanos() / 1e6 / r.count());
                    row.put("p95_time_ms", r.digest().p95Micros() / 1e3);
                    top.add(row);
                });
        Map<String, Object> digests = new LinkedHashMap<>();
        digests.put("enabled", stats.digests().enabled());
        digests.put("kept", stats.digests().size());
        digests.put("top", top);
        return digests;
    }

    private List<Map<String, Object>> sessions() {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (SessionRow session : stats.sessions().newest(SESSIONS_SHOWN, SNAPSHOT_TIMEOUT_MILLIS)) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", session.id());
            row.put("user", session.user());
            row.put("client", session.client());
            row.put("schema", session.schema());
            row.put("backend", session.backend());
            row.put("pins", session.pins());
            row.put("statements", session.statements());
            row.put("errors", session.errors());
            row.put("idle_ms", session.idleMillis());
            rows.add(row);
        }
        return rows;
    }

    private static Double millis(Histogram histogram, double percentile) {
        return histogram.getTotalCount() == 0 ? null : histogram.getValueAtPercentile(percentile) / 1000.0;
    }

}
