package dev.sluice.proxy.health;

import dev.sluice.config.HealthConfig;
import dev.sluice.config.UserConfig;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.probe.OwnConnection;
import dev.sluice.proxy.probe.ProbeException;
import dev.sluice.proxy.probe.QueryResult;
import dev.sluice.proxy.runtime.ProxyRuntime;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks every backend each interval on its own connection, off the proxy's event loops: log in
 * (once, then kept), COM_PING, {@code SELECT @@read_only}, and on replicas the replication status.
 * A backend failing fail_after checks in a row, or fail_after connection attempts of sessions in a
 * row, is SHUNNED; passing recover_after in a row brings
 * it back ONLINE (and ends any connect backoff). DRAINING and OFFLINE are the admin's and stay.
 * A replica behind max_replication_lag, or whose replication stopped, is marked lagging: the split
 * router gives it no reads until it catches up.
 */
public final class HealthChecker implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(HealthChecker.class);

    private final ProxyRuntime runtime;
    private final EventLoop loop;
    private final Class<? extends Channel> channelType;
    private final Map<Backend, BackendHealth> health = new ConcurrentHashMap<>();
    private final RoleDiscovery roles = new RoleDiscovery();
    private final JoinedReplicas joinedReplicas;
    private volatile HealthConfig config;
    private ScheduledFuture<?> ticker;
    private volatile boolean closed;

    public HealthChecker(ProxyRuntime runtime, EventLoop loop, Class<? extends Channel> channelType) {
        this.runtime = runtime;
        this.loop = loop;
        this.channelType = channelType;
        this.config = runtime.config().health();
        this.joinedReplicas = new JoinedReplicas(runtime::joinBackends);
        runtime.primaries().onReadOnlySeen(backend -> loop.execute(() -> readOnlySeen(backend)));
    }

    /**
     * A session's write found the backend read_only: it is a replica from now on, until a check
     * reads otherwise, and every backend is checked now rather than at the next tick, so that the
     * new primary (if any is writable yet) is found at once.
     */
    private void readOnlySeen(Backend backend) {
        if (closed || !backend.config().isAuto() || Boolean.TRUE.equals(health(backend).readOnly())) {
            return;
        }
        log.info("backend {} refused a write as read_only: it is no primary until a check finds read_only off",
                backend.name());
        health(backend).readOnly(true);
        decideRoles();
        checkAllNow();
    }

    private void checkAllNow() {
        HealthConfig current = config;
        Optional<UserConfig> account = HealthAccount.of(runtime.config());
        if (current.enabled() && account.isPresent()) {
            for (Backend backend : runtime.backends()) {
                check(backend, health(backend), current, account.get());
            }
        }
    }

    /** Role auto: who is the primary after what the checks know now. */
    private void decideRoles() {
        List<Backend> backends = runtime.backends();
        RoleDiscovery.Decision decision = RoleDiscovery.decide(backends, b -> health(b).readOnly(),
                runtime.config().routing().preferredPrimary());
        runtime.primaries().noPrimary(roles.apply(backends, decision), decision.conflict());
    }

    /** Starts checking; every interval from now on (the first check at once). */
    public void start() {
        loop.execute(this::tick);
    }

    /** A reload may change the interval, thresholds, lag limit or account; the next tick uses them. */
    public void reconfigure(HealthConfig newConfig) {
        HealthConfig old = config;
        config = newConfig;
        if (!old.user().equals(newConfig.user()) || !old.password().equals(newConfig.password())) {
            loop.execute(() -> health.values().forEach(h -> {
                if (h.connection != null) {
                    h.connection.close();
                    h.connection = null;
                }
            }));
        }
    }

    /** The checks' view of a backend (an empty one before its first check). */
    public BackendHealth health(Backend backend) {
        return health.computeIfAbsent(backend, b -> new BackendHealth());
    }

    public boolean enabled() {
        return config.enabled() && HealthAccount.of(runtime.config()).isPresent();
    }

    private void tick() {
        if (closed) {
            return;
        }
        HealthConfig current = config;
        Set<Backend> live = new HashSet<>(runtime.backends());
        for (Map.Entry<Backend, BackendHealth> entry : health.entrySet()) {
            if (!live.contains(entry.getKey())) {
                if (entry.getValue().connection != null) {
                    entry.getValue().connection.close();
                }
                health.remove(entry.getKey());
            }
        }
        Optional<UserConfig> account = HealthAccount.of(runtime.config());
        if (current.enabled() && account.isPresent()) {
            for (Backend backend : live) {
                shunOnConnectErrors(backend, health(backend), current);
                check(backend, health(backend), current, account.get());
            }
        }
        ticker = loop.schedule(this::tick, current.interval().toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Too many errors: sessions failing to connect fail_after times in a row shun the backend at
     * once, without waiting for the checks to fail as often. It comes back after recover_after
     * passed checks, the first on a new connection: the check's long-lived connection may still
     * answer pings while new ones are refused.
     */
    private void shunOnConnectErrors(Backend backend, BackendHealth state, HealthConfig current) {
        int failures = backend.consecutiveConnectFailures();
        if (backend.state() == Backend.State.ONLINE && failures >= current.failAfter()) {
            backend.state(Backend.State.SHUNNED);
            state.consecutiveSuccesses = 0;
            state.reconnect = true;
            log.warn("backend {} is SHUNNED after {} connection errors in a row: {}", backend.name(), failures,
                    backend.lastConnectError());
        }
    }

    private void check(Backend backend, BackendHealth state, HealthConfig current, UserConfig account) {
        if (state.checking) {
            return;
        }
        state.checking = true;
        if (state.reconnect && state.connection != null) {
            state.connection.close();
            state.connection = null;
        }
        state.reconnect = false;
        Check check = new Check(backend, state, current);
        check.timer = loop.schedule(() -> check.fail("no answer within " + current.timeout().toMillis() + " ms", false),
                current.timeout().toMillis(), TimeUnit.MILLISECONDS);
        Future<OwnConnection> connected = state.connection != null && state.connection.isActive()
                ? loop.newSucceededFuture(state.connection)
                : OwnConnection.open(backend, account.name(), account.password().getBytes(StandardCharsets.UTF_8),
                        runtime.backendTls(), runtime.connector().authOptions(), loop, channelType,
                        (int) current.timeout().toMillis(), runtime.connector().resolver());
        connected.addListener(done -> {
            if (!done.isSuccess()) {
                ProbeException e = done.cause() instanceof ProbeException h ? h : null;
                check.fail(done.cause().getMessage(), e != null && e.unreachable());
                return;
            }
            if (check.over) {
                ((OwnConnection) done.getNow()).close();
                return;
            }
            state.connection = (OwnConnection) done.getNow();
            ping(check);
        });
    }

    private void ping(Check check) {
        check.state.connection.ping().addListener(done -> {
            if (check.failed(done, "COM_PING")) {
                return;
            }
            check.state.selects.increment();
            check.state.connection.query("SELECT @@read_only").addListener(readOnly -> {
                if (check.failed(readOnly, "SELECT @@read_only")) {
                    return;
                }
                String value = ((QueryResult) readOnly.getNow()).first("@@read_only");
                Boolean on = value == null ? null : !value.equals("0");
                check.state.readOnly(on);
                // Role auto: a writable backend is (or is about to be) a primary, whose lag means nothing.
                boolean writer = check.backend.config().isAuto() ? Boolean.FALSE.equals(on) : check.backend.isPrimary();
                if (writer) {
                    binlogPosition(check);
                } else {
                    replicaStatus(check);
                }
            });
        });
    }

    /**
     * A primary's {@code @@gtid_binlog_pos} (MariaDB): where its transactions stand, a floor for
     * showing that a write lost with its connection did not run. A server without it (MySQL) is not
     * asked again.
     */
    private void binlogPosition(Check check) {
        if (!check.state.asksBinlogPosition) {
            joinReplicas(check);
            return;
        }
        check.state.selects.increment();
        check.state.connection.query("SELECT @@gtid_binlog_pos").addListener(done -> {
            if (check.over) {
                return;
            }
            if (done.isSuccess() && ((QueryResult) done.getNow()).isError()) {
                check.state.asksBinlogPosition = false;
            } else if (check.failed(done, "SELECT @@gtid_binlog_pos")) {
                return;
            } else {
                try {
                    runtime.acknowledgedWrites().observed(dev.sluice.proxy.gtid.GtidPosition.parse(
                            ((QueryResult) done.getNow()).first("@@gtid_binlog_pos")));
                } catch (IllegalArgumentException e) {
                    check.state.asksBinlogPosition = false;
                }
            }
            joinReplicas(check);
        });
    }

    /** A primary's replicas join (routing.discover: replica_hosts), then its check passes. */
    private void joinReplicas(Check check) {
        joinedReplicas.ask(check.state.connection, check.backend, runtime.config(), loop.newPromise())
                .addListener(done -> check.pass(null));
    }

    private void replicaStatus(Check check) {
        check.state.replicaStatuses.increment();
        String sql = check.state.replicaStatusQuery;
        check.state.connection.query(sql).addListener(done -> {
            if (check.over) {
                return;
            }
            if (done.isSuccess() && ((QueryResult) done.getNow()).isError()
                    && ((QueryResult) done.getNow()).errorCode() == 1064 && sql.contains("REPLICA")) {
                check.state.replicaStatusQuery = "SHOW SLAVE STATUS";
                replicaStatus(check);
                return;
            }
            if (check.failed(done, sql)) {
                return;
            }
            check.pass(ReplicationStatus.of((QueryResult) done.getNow()));
        });
    }

    /** One check of one backend; whichever ends it first (answer, error, timeout) wins. */
    private final class Check {
        final Backend backend;
        final BackendHealth state;
        final HealthConfig config;
        ScheduledFuture<?> timer;
        boolean over;

        Check(Backend backend, BackendHealth state, HealthConfig config) {
            this.backend = backend;
            this.state = state;
            this.config = config;
        }

        /** True (and the check failed) when the step did not succeed. */
        boolean failed(Future<?> step, String what) {
            if (over) {
                return true;
            }
            if (!step.isSuccess()) {
                fail(what + ": " + step.cause().getMessage(), false);
                return true;
            }
            if (step.getNow() instanceof QueryResult result && result.isError()) {
                fail(what + ": ERR " + result.errorCode() + " " + result.errorMessage(), false);
                return true;
            }
            return false;
        }

        void fail(String reason, boolean unreachable) {
            if (!end()) {
                return;
            }
            if (state.connection != null) {
                state.connection.close();
                state.connection = null;
            }
            state.checked(System.currentTimeMillis(), reason);
            state.consecutiveSuccesses = 0;
            state.consecutiveFailures++;
            if (unreachable) {
                // As for a session's failed connect: out of rotation at once, until a check or a login succeeds.
                backend.connectFailed(System.nanoTime(), runtime.config().timeouts().backendRetry().toNanos(),
                        "health check: " + reason);
            }
            if (!backend.isPrimary()) {
                backend.replicationLag(null, false);
            }
            if (backend.state() == Backend.State.ONLINE && state.consecutiveFailures >= config.failAfter()) {
                backend.state(Backend.State.SHUNNED);
                log.warn("backend {} is SHUNNED after {} failed health checks: {}", backend.name(),
                        state.consecutiveFailures, reason);
                runtime.failStatementsOn(backend, "backend " + backend.name() + " stopped answering its health checks ("
                        + reason + ")");
            }
            decideRoles();
        }

        void pass(ReplicationStatus replication) {
            if (!end()) {
                return;
            }
            state.checked(System.currentTimeMillis(), null);
            state.consecutiveFailures = 0;
            state.consecutiveSuccesses++;
            if (replication != null) {
                state.replication(replication.description());
                boolean tooFar = config.limitsLag() && replication.configured()
                        && (replication.lagSeconds() == null || replication.lagSeconds() > config.maxReplicationLag().toSeconds());
                if (tooFar != backend.lagging()) {
                    log.info("replica {} {} (lag {}, max_replication_lag {})", backend.name(),
                            tooFar ? "gets no reads until it catches up" : "caught up and takes reads again",
                            replication.lagSeconds() == null ? "unknown: " + replication.description()
                                    : replication.lagSeconds() + " s", config.maxReplicationLag());
                }
                backend.replicationLag(replication.lagSeconds(), tooFar);
            } else if (backend.config().isAuto()) {
                // Promoted: what it lagged as a replica must not keep it from taking writes.
                backend.replicationLag(null, false);
            }
            if (state.consecutiveSuccesses >= config.recoverAfter()) {
                backend.connectSucceeded();
                if (backend.state() == Backend.State.SHUNNED) {
                    backend.state(Backend.State.ONLINE);
                    log.info("backend {} is ONLINE again after {} passed health checks", backend.name(),
                            state.consecutiveSuccesses);
                }
            }
            decideRoles();
        }

        private boolean end() {
            if (over) {
                return false;
            }
            over = true;
            state.checking = false;
            if (timer != null) {
                timer.cancel(false);
            }
            return true;
        }
    }

    @Override
    public void close() {
        closed = true;
        loop.execute(() -> {
            if (ticker != null) {
                ticker.cancel(false);
            }
            health.values().forEach(h -> {
                if (h.connection != null) {
                    h.connection.close();
                    h.connection = null;
                }
            });
        });
    }
}
