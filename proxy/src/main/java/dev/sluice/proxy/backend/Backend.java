package dev.sluice.proxy.backend;

import dev.sluice.config.BackendConfig;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One configured backend at run time: its settings, whether it currently accepts connections
 * (state, weight, connect backoff, replication lag), its connection and session gauges, and its
 * traffic ({@link BackendStats}). Shared by all event loops, so everything here is atomic.
 */
public final class Backend {

    private static final long MAX_BACKOFF_NANOS = 30_000_000_000L;

    /** Replaced by a config reload that keeps the backend (same name and address). */
    private volatile BackendConfig config;

    /**
     * ONLINE takes new work. SHUNNED: the health checker found it failing. DRAINING: the admin
     * wants it emptied (sessions on it finish, nothing new comes). OFFLINE: the admin took it out.
     */
    public enum State {
        ONLINE, SHUNNED, DRAINING, OFFLINE
    }

    private volatile State state = State.ONLINE;
    private volatile int weight;
    private final AtomicInteger openConnections = new AtomicInteger();
    private final AtomicInteger activeSessions = new AtomicInteger();
    private final BackendStats stats = new BackendStats();

    private final Object backoffLock = new Object();
    private volatile long unavailableUntilNanos;
    private int consecutiveConnectFailures;
    private volatile String lastConnectError;
    /** When (System.nanoTime) a login or health check last succeeded; 0 before the first. */
    private volatile long lastAnsweredNanos;
    private volatile boolean lagging;
    private volatile Long replicationLagSeconds;
    /** role auto: the health checks found it the writable backend (see RoleDiscovery). */
    private volatile boolean discoveredPrimary;

    public Backend(BackendConfig config) {
        this.config = config;
        this.weight = config.weight();
    }

    public State state() {
        return state;
    }

    public void state(State newState) {
        this.state = newState;
    }

    /** Changes the weight at run time (admin); 0 takes the backend out of every balancer. */
    public void weight(int newWeight) {
        if (newWeight < 0) {
            throw new IllegalArgumentException("weight: " + newWeight + " (expected: >= 0)");
        }
        this.weight = newWeight;
    }

    public BackendConfig config() {
        return config;
    }

    /**
     * A reload changed this backend's settings (its name and address stay): the new weight
     * replaces any the admin set, the new role and max_connections apply to what comes next.
     */
    public void reconfigure(BackendConfig newConfig) {
        if (!newConfig.name().equals(config.name()) || !newConfig.address().equals(config.address())) {
            throw new IllegalArgumentException("reconfigure " + this + " as " + newConfig.name() + "("
                    + newConfig.address() + ") (expected: the same name and address)");
        }
        this.config = newConfig;
        this.weight = newConfig.weight();
    }

    public String name() {
        return config.name();
    }

    public int weight() {
        return weight;
    }

    /** Takes writes now: configured as the primary, or role auto and found the writable one. */
    public boolean isPrimary() {
        BackendConfig current = config;
        return current.isPrimary() || current.isAuto() && discoveredPrimary;
    }

    /** Role auto: whether it is the primary from now on (written by the health checks' loop only). */
    public void discoveredPrimary(boolean primary) {
        this.discoveredPrimary = primary;
    }

    /** The role it plays now, as SHOW BACKENDS shows it: {@code primary}, {@code replica (auto)}... */
    public String roleName() {
        BackendConfig current = config;
        if (!current.isAuto()) {
            return current.role().configName();
        }
        return (discoveredPrimary ? "primary" : "replica") + " (auto)";
    }

    /** True when the backend takes new work: ONLINE, and not on backoff after refusing connections. */
    public boolean available(long nowNanos) {
        return state == State.ONLINE && (unavailableUntilNanos == 0 || nowNanos - unavailableUntilNanos >= 0);
    }

    /**
     * Takes the backend out of rotation for a backoff that doubles with each consecutive failure,
     * starting at {@code baseBackoffNanos} and capped at 30 s.
     */
    public void connectFailed(long nowNanos, long baseBackoffNanos, String reason) {
        synchronized (backoffLock) {
            int failures = Math.min(++consecutiveConnectFailures, 20);
            long backoff = Math.min(MAX_BACKOFF_NANOS, baseBackoffNanos << Math.min(failures - 1, 16));
            long until = nowNanos + backoff;
            unavailableUntilNanos = until == 0 ? 1 : until;
            lastConnectError = reason;
        }
    }

    public void connectSucceeded() {
        long now = System.nanoTime();
        lastAnsweredNanos = now == 0 ? 1 : now;
        if (unavailableUntilNanos != 0 || consecutiveConnectFailures != 0) {
            synchronized (backoffLock) {
                consecutiveConnectFailures = 0;
                unavailableUntilNanos = 0;
            }
        }
    }

    /** A replica behind max_replication_lag: it gets no reads until it catches up. */
    public boolean lagging() {
        return lagging;
    }

    public Long replicationLagSeconds() {
        return replicationLagSeconds;
    }

    public void replicationLag(Long seconds, boolean tooFarBehind) {
        this.replicationLagSeconds = seconds;
        this.lagging = tooFarBehind;
    }

    /** Connection attempts that failed in a row since the last one that worked. */
    /**
     * True when a login or health check succeeded within {@code windowNanos}: the backend is alive,
     * so a login that timed out meanwhile says the machine is busy, not that the backend is gone.
     */
    public boolean answeredWithin(long nowNanos, long windowNanos) {
        long answered = lastAnsweredNanos;
        return answered != 0 && nowNanos - answered < windowNanos;
    }

    public int consecutiveConnectFailures() {
        synchronized (backoffLock) {
            return consecutiveConnectFailures;
        }
    }

    public String lastConnectError() {
        return lastConnectError;
    }

    public AtomicInteger openConnections() {
        return openConnections;
    }

    public AtomicInteger activeSessions() {
        return activeSessions;
    }

    /** Its traffic: statements, errors, bytes and latencies. */
    public BackendStats stats() {
        return stats;
    }

    @Override
    public String toString() {
        return name() + "(" + config.address() + ")";
    }
}
