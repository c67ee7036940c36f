package dev.sluice.proxy.admin;

import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.proxy.health.BackendHealth;
import dev.sluice.proxy.health.HealthChecker;
import dev.sluice.proxy.runtime.ProxyRuntime;
import dev.sluice.proxy.sql.Digest;
import dev.sluice.proxy.stats.DigestStats;
import dev.sluice.proxy.stats.DigestTable;
import dev.sluice.proxy.stats.StatsObserver;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * The admin tables (backends, pools, digests, sessions, global), built fresh from the live
 * counters on each request. Call off the proxy's event loops: the sessions table waits for them.
 */
public final class Tables {

    public static final List<String> NAMES = List.of("backends", "pools", "digests", "sessions", "global", "mirror");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());
    private static final long SNAPSHOT_TIMEOUT_MILLIS = 1000;

    private final ProxyRuntime runtime;
    private final StatsObserver stats;
    private final HealthChecker health;

    public Tables(ProxyRuntime runtime, StatsObserver stats, HealthChecker health) {
        this.runtime = runtime;
        this.stats = stats;
        this.health = health;
    }

    /** A table by name (any case), or null when there is no such table. */
    public Table table(String name) {
        return switch (name.toLowerCase(java.util.Locale.ROOT)) {
            case "backends" -> backends();
            case "pools" -> pools();
            case "digests" -> digests();
            case "sessions" -> sessions();
            case "global" -> global();
            case "mirror" -> MirrorTables.digests(runtime.mirror());
            default -> null;
        };
    }

    public Table backends() {
        Table.Builder table = new Table.Builder("backends").text("name").text("address").text("role").text("state")
                .integer("available").integer("weight").integer("queries").integer("errors").text("errors_by_code")
                .integer("bytes_sent").integer("bytes_received").integer("conn_open").integer("conn_idle")
                .integer("conn_in_use").integer("conn_waiting").integer("conn_max").integer("sessions")
                .decimal("p50_ms").decimal("p95_ms").decimal("p99_ms").decimal("max_ms")
                .decimal("p50_10s_ms").decimal("p95_10s_ms").decimal("p99_10s_ms").decimal("max_10s_ms")
                .integer("replication_lag_s").integer("lagging").integer("read_only").text("replication")
                .integer("checks_passed").integer("checks_failed").text("last_check_error");
        long now = System.nanoTime();
        for (Backend backend : runtime.backends()) {
            BackendPool pool = runtime.pool(backend);
            int open = Math.max(0, backend.openConnections().get());
            int idle = pool == null ? 0 : pool.idleCount();
            Histogram total = backend.stats().latency().snapshotTotal();
            Histogram recent = backend.stats().latency().snapshotRecent();
            BackendHealth checks = health == null ? null : health.health(backend);
            table.row(backend.name(), backend.config().address().toString(), backend.roleName(),
                    backend.state().name(), backend.available(now), backend.weight(), backend.stats().queries(), backend.stats().errors(),
                    errorsByCode(backend.stats().errorsByCode()), backend.stats().bytesToBackend(),
                    backend.stats().bytesFromBackend(), open, idle,
                    Math.max(0, open - idle), pool == null ? 0 : pool.waiting(), backend.config().maxConnections(),
                    backend.activeSessions().get(),
                    millis(total, 50), millis(total, 95), millis(total, 99), max(total),
                    millis(recent, 50), millis(recent, 95), millis(recent, 99), max(recent),
                    backend.isPrimary() ? null : backend.replicationLagSeconds(), backend.lagging(),
                    checks == null ? null : checks.readOnly(), checks == null ? null : checks.replication(),
                    checks == null ? 0 : checks.checksPassed(), checks == null ? 0 : checks.checksFailed(),
                    checks == null ? null : checks.lastError());
        }
        return table.build();
    }

    public Table pools() {
        Table.Builder table = new Table.Builder("pools").text("backend").integer("retired").integer("open")
                .integer("idle").integer("in_use").integer("waiting").integer("max").integer("queue_max")
                .integer("logins").integer("reused");
        List<Backend> current = runtime.backends();
        for (BackendPool pool : runtime.pools()) {
            Backend backend = pool.backend();
            int open = Math.max(0, backend.openConnections().get());
            int idle = pool.idleCount();
            table.row(backend.name(), !current.contains(backend), open, idle, Math.max(0, open - idle), pool.waiting(),
                    backend.config().maxConnections(), runtime.config().limits().backendQueueSize(), pool.loginCount(),
                    pool.reusedCount());
        }
        return table.build();
    }

    public Table digests() {
        Table.Builder table = new Table.Builder("digests").text("digest").text("digest_text").integer("count")
                .decimal("sum_time_ms").decimal("avg_time_ms").decimal("min_time_ms").decimal("max_time_ms")
                .decimal("p95_time_ms").integer("rows_sent").integer("rows_affected").integer("errors")
                .text("first_seen").text("last_seen");
        List<DigestStats> all = stats.digests().snapshot();
        all.sort(Comparator.comparingLong(DigestStats::sumNanos).reversed());
        for (DigestStats digest : all) {
            long count = digest.count();
            if (count == 0) {
                continue;
            }
            table.row(Digest.hex(digest.fingerprint()), digest.text(), count, digest.sumNanos() / 1e6,
                    digest.sumNanos() / 1e6 / count, digest.minNanos() / 1e6, digest.maxNanos() / 1e6,
                    digest.p95Micros() / 1e3, digest.rowsSent(), digest.rowsAffected(), digest.errors(),
                    TIME.format(Instant.ofEpochMilli(digest.firstSeenMillis())),
                    TIME.format(Instant.ofEpochMilli(digest.lastSeenMillis())));
        }
        return table.build();
    }

    public long digestsKept() {
        return stats.digests().size();
    }

    public long digestsEvicted() {
        return stats.digests().evicted();
    }

    public Table sessions() {
        Table.Builder table = new Table.Builder("sessions").integer("id").text("user").text("client").text("schema")
                .text("backend").text("pins").integer("statements").integer("to_primary").integer("to_replica")
                .integer("errors").text("started").integer("idle_ms");
        for (var row : stats.sessions().snapshot(SNAPSHOT_TIMEOUT_MILLIS)) {
            table.row(row.id(), row.user(), row.client(), row.schema(), row.backend(), row.pins().isEmpty() ? null : row.pins(),
                    row.statements(), row.toPrimary(), row.toReplica(), row.errors(),
                    TIME.format(Instant.ofEpochMilli(row.startedMillis())), row.idleMillis());
        }
        return table.build();
    }

    /** Proxy-wide figures, one per row, as SHOW GLOBAL STATUS does. */
    public Table global() {
        Table.Builder table = new Table.Builder("global").text("variable").integer("value");
        DigestTable digests = stats.digests();
        int clients = runtime.clientConnections().get();
        int backendConnections = runtime.backends().stream().mapToInt(b -> b.openConnections().get()).sum();
        table.row("client_connections", clients);
        table.row("backend_connections", backendConnections);
        // Multiplexing at a glance (split mode shares backend connections between sessions).
        table.row("clients_per_backend_connection", backendConnections == 0 ? 0 : Math.round((double) clients / backendConnections));
        table.row("client_connections_accepted", runtime.stats().connectionsAccepted());
        table.row("client_connections_refused", runtime.stats().connectionsRefused());
        table.row("login_failures", runtime.stats().loginFailures());
        table.row("protocol_errors", runtime.stats().protocolErrors());
        table.row("primary_waits", runtime.stats().primaryWaits());
        table.row("primary_wait_timeouts", runtime.stats().primaryWaitTimeouts());
        table.row("writes_refused_split_brain", runtime.stats().splitBrainRefusals());
        table.row("writes_retried_read_only", runtime.stats().readOnlyRetries());
        table.row("writes_retried_after_loss", runtime.stats().lostWritesRetried());
        table.row("writes_outcome_unknown", runtime.stats().lostWritesUnknown());
        table.row("transactions_replayed", runtime.stats().transactionsReplayed());
        table.row("transaction_replays_failed", runtime.stats().transactionReplaysFailed());
        table.row("sessions", stats.sessions().size());
        table.row("sessions_started", stats.sessionsStarted());
        table.row("statements_to_primary", stats.statementsToPrimary());
        table.row("statements_to_replicas", stats.statementsToReplicas());
        table.row("digests", digests.size());
        table.row("digests_evicted", digests.evicted());
        table.row("digests_enabled", digests.enabled());
        for (Map.Entry<String, Long> pin : stats.pinsByReason().entrySet()) {
            table.row("pins_" + pin.getKey(), pin.getValue());
        }
        return table.build();
    }

    private static String errorsByCode(Map<Integer, Long> byCode) {
        return byCode.isEmpty() ? null : byCode.entrySet().stream().map(e -> e.getKey() + ":" + e.getValue())
                .collect(Collectors.joining(" "));
    }

    private static Double millis(Histogram histogram, double percentile) {
        return histogram.getTotalCount() == 0 ? null : histogram.getValueAtPercentile(percentile) / 1000.0;
    }

    private static Double max(Histogram histogram) {
        return histogram.getTotalCount() == 0 ? null : histogram.getMaxValue() / 1000.0;
    }
}
