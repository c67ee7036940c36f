package dev.sluice.proxy;

import dev.sluice.config.SluiceConfig;
import dev.sluice.config.UserConfig;
import dev.sluice.protocol.auth.AuthPlugins;
import dev.sluice.protocol.auth.RsaKeyPair;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendConnection;
import dev.sluice.proxy.backend.BackendConnector;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.proxy.backend.ServerIdentity;
import dev.sluice.proxy.memory.MemoryBudget;
import dev.sluice.proxy.routing.Router;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.ssl.SslContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every client connection needs from the proxy, handed to handlers through their
 * constructors: configuration, backends and their pools, the router, auth and TLS material, and
 * the client connection count.
 */
public final class ProxyRuntime {

    private static final Logger log = LoggerFactory.getLogger(ProxyRuntime.class);

    /** Replaced as a whole by a config reload; read it afresh rather than keeping it. */
    private volatile SluiceConfig config;
    /** Copy-on-write: a reload swaps in a new list; the routers follow (see {@link #applyBackends}). */
    private volatile List<Backend> backends;
    /** Pools of the current backends and of removed ones that still have connections open. */
    private final Map<Backend, BackendPool> pools = new ConcurrentHashMap<>();
    private final dev.sluice.proxy.backend.KillConnections killConnections = new dev.sluice.proxy.backend.KillConnections();
    private final Set<Backend> retired = ConcurrentHashMap.newKeySet();
    private final Router router;
    private final BackendConnector connector;
    private final AuthPlugins authPlugins = AuthPlugins.standard();
    private final RsaKeyPair rsaKeys;
    private final SslContext clientTls;
    private final SslContext backendTls;
    private final ChannelGroup clients;
    private final AtomicInteger clientConnections = new AtomicInteger();
    private final AtomicLong connectionIds = new AtomicLong();
    private final ProxyStats stats = new ProxyStats();
    /** Writes acknowledged to clients, for reads on other connections that must see them. */
    private final dev.sluice.proxy.gtid.AcknowledgedWrites acknowledgedWrites = new dev.sluice.proxy.gtid.AcknowledgedWrites();
    /**
     * Users who passed caching_sha2_password full authentication since this proxy started: like
     * MySQL's cache, later logins may use fast authentication. Per proxy, as MySQL's is per server
     * process, so a proxy started again asks for full authentication again.
     */
    private final Set<String> sha2Cache = ConcurrentHashMap.newKeySet();
    /** Its threshold is the starting config's: a reload keeps the counts, and the threshold. */
    private final dev.sluice.proxy.auth.FailedLogins failedLogins;
    /** Its limit is the starting config's. */
    private final MemoryBudget bufferedMemory;
    private volatile boolean shuttingDown;
    /** Why no role auto backend takes writes now (two writable, none), or null; set by the health checks. */
    private volatile String noPrimaryReason;
    /** More than one role auto backend is writable and none is preferred: writes stop. */
    private volatile boolean splitBrain;
    /** Tells the health checks a backend refused a write as read_only; theirs to install. */
    private volatile java.util.function.Consumer<Backend> readOnlySeen = backend -> { };
    private final dev.sluice.proxy.capture.CaptureControl capture;
    private final java.util.List<dev.sluice.proxy.observe.StatementObserver> observers =
            new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile dev.sluice.proxy.observe.StatementObserver observer = dev.sluice.proxy.observe.StatementObserver.NONE;

    ProxyRuntime(SluiceConfig config, List<Backend> backends, Router router, BackendConnector connector,
                 RsaKeyPair rsaKeys, SslContext clientTls, SslContext backendTls, ChannelGroup clients) {
        this.config = config;
        this.failedLogins = new dev.sluice.proxy.auth.FailedLogins(config.limits().failedLoginsBeforeDelay());
        this.bufferedMemory = MemoryBudget.upTo(config.limits().bufferedMemory());
        if (bufferedMemory.limit() < config.limits().bufferedMemory()) {
            log.info("limits.buffered_memory: {} MiB, a quarter of the JVM's memory (configured: {} MiB)",
                    bufferedMemory.limit() >> 20, config.limits().bufferedMemory() >> 20);
        }
        this.capture = new dev.sluice.proxy.capture.CaptureControl(this::addObserver, this::removeObserver,
                () -> true, bufferedMemory);
        this.backends = List.copyOf(backends);
        this.router = router;
        this.connector = connector;
        this.rsaKeys = rsaKeys;
        this.clientTls = clientTls;
        this.backendTls = backendTls;
        this.clients = clients;
        for (Backend backend : this.backends) {
            pools.put(backend, newPool(backend));
        }
    }

    private BackendPool newPool(Backend backend) {
        return new BackendPool(backend, connector, config.limits().backendQueueSize(), config.timeouts().backendQueue());
    }

    /**
     * A reload's backends: one with the same name and address keeps its run-time object (counters,
     * pool, sessions) and takes the new settings; the others are new. Backends no longer listed are
     * retired: no new work, idle connections closed, busy ones closed when their sessions give them
     * back. Sessions are never cut. Called by one thread at a time (the reload).
     *
     * @return the names added, removed and changed
     */
    public synchronized BackendChanges applyBackends(SluiceConfig newConfig) {
        Map<String, Backend> previous = new LinkedHashMap<>();
        backends.forEach(b -> previous.put(b.name(), b));
        List<Backend> next = new java.util.ArrayList<>();
        List<String> added = new java.util.ArrayList<>();
        List<String> changed = new java.util.ArrayList<>();
        List<Backend> leaving = new java.util.ArrayList<>();
        this.config = newConfig;
        for (dev.sluice.config.BackendConfig wanted : newConfig.backends()) {
            Backend kept = previous.remove(wanted.name());
            if (kept != null && kept.config().address().equals(wanted.address())) {
                if (!kept.config().equals(wanted) || kept.weight() != wanted.weight()) {
                    kept.reconfigure(wanted);
                    changed.add(wanted.name());
                }
                next.add(kept);
                continue;
            }
            if (kept != null) {
                leaving.add(kept);
                changed.add(wanted.name());
            } else {
                added.add(wanted.name());
            }
            Backend fresh = new Backend(wanted);
            pools.put(fresh, newPool(fresh));
            next.add(fresh);
        }
        leaving.addAll(previous.values());
        for (Backend kept : next) {
            pools.get(kept).queueLimits(newConfig.limits().backendQueueSize(), newConfig.timeouts().backendQueue());
        }
        backends = List.copyOf(next);
        router.backends(backends);
        for (Backend gone : leaving) {
            gone.state(Backend.State.OFFLINE);
            retired.add(gone);
            pools.get(gone).close();
        }
        dropDrainedPools();
        return new BackendChanges(added, List.copyOf(previous.keySet()), changed);
    }

    /** Forgets retired backends whose last connection has closed; called periodically. */
    public void dropDrainedPools() {
        for (Backend gone : retired) {
            if (gone.openConnections().get() <= 0 && gone.activeSessions().get() <= 0) {
                retired.remove(gone);
                pools.remove(gone);
            }
        }
    }

    /** What {@link #applyBackends} did, by backend name. */
    public record BackendChanges(List<String> added, List<String> removed, List<String> changed) {
        public boolean none() {
            return added.isEmpty() && removed.isEmpty() && changed.isEmpty();
        }
    }

    /** Replaces the config without touching backends (a reload whose backends did not change). */
    public void config(SluiceConfig newConfig) {
        this.config = newConfig;
    }

    public SluiceConfig config() {
        return config;
    }

    public List<Backend> backends() {
        return backends;
    }

    public BackendPool pool(Backend backend) {
        return pools.get(backend);
    }

    /** The connections KILLs are sent on. */
    public dev.sluice.proxy.backend.KillConnections killConnections() {
        return killConnections;
    }

    /** Every pool, retired backends' included. */
    public Iterable<BackendPool> pools() {
        return pools.values();
    }

    public Router router() {
        return router;
    }

    /** The router in split mode. */
    public dev.sluice.proxy.routing.SplitRouter splitRouter() {
        return (dev.sluice.proxy.routing.SplitRouter) router;
    }

    public boolean splitMode() {
        return router instanceof dev.sluice.proxy.routing.SplitRouter;
    }

    public BackendConnector connector() {
        return connector;
    }

    public AuthPlugins authPlugins() {
        return authPlugins;
    }

    public RsaKeyPair rsaKeys() {
        return rsaKeys;
    }

    /** TLS towards clients, or null when off. */
    public SslContext clientTls() {
        return clientTls;
    }

    /** TLS towards backends, or null when off. */
    public SslContext backendTls() {
        return backendTls;
    }

    public ChannelGroup clients() {
        return clients;
    }

    public AtomicInteger clientConnections() {
        return clientConnections;
    }

    /** Sessions of either mode by the connection id the proxy greeted them with (users configured only). */
    private final Map<Long, dev.sluice.proxy.kill.KillableSession> sessionsById =
            new java.util.concurrent.ConcurrentHashMap<>();

    public void registerSession(long connectionId, dev.sluice.proxy.kill.KillableSession session) {
        sessionsById.put(connectionId, session);
    }

    public void unregisterSession(long connectionId, dev.sluice.proxy.kill.KillableSession session) {
        sessionsById.remove(connectionId, session);
    }

    /** Pass-through sessions: no KILL reaches them by id, but a shunned backend fails their statements too. */
    private final Set<dev.sluice.proxy.kill.KillableSession> passThrough = ConcurrentHashMap.newKeySet();

    public void registerPassThrough(dev.sluice.proxy.kill.KillableSession session) {
        passThrough.add(session);
    }

    public void unregisterPassThrough(dev.sluice.proxy.kill.KillableSession session) {
        passThrough.remove(session);
    }

    /**
     * {@code backend} stopped answering its health checks: the statements in flight there fail now,
     * each on its session's loop (an autocommit read on a replica is retried elsewhere), instead of
     * waiting for a server that may never answer (kill -STOP, a hung disk, a dead network path).
     */
    public void failStatementsOn(Backend backend, String reason) {
        List<dev.sluice.proxy.kill.KillableSession> sessions = new java.util.ArrayList<>(sessionsById.values());
        sessions.addAll(passThrough);
        for (dev.sluice.proxy.kill.KillableSession session : sessions) {
            session.eventLoop().execute(() -> {
                BackendConnection connection = session.statementConnection();
                if (connection != null && connection.backend() == backend) {
                    connection.fail(reason);
                }
            });
        }
    }

    /** The live session the proxy greeted with {@code connectionId}, if any. */
    public Optional<dev.sluice.proxy.kill.KillableSession> session(long connectionId) {
        return Optional.ofNullable(sessionsById.get(connectionId));
    }

    public long nextConnectionId() {
        return connectionIds.incrementAndGet() & 0xFFFF_FFFFL;
    }

    /** User names that may log in with caching_sha2_password fast authentication. */
    /** What sessions' large commands and capture's queue hold together. */
    public MemoryBudget bufferedMemory() {
        return bufferedMemory;
    }

    /** Failed logins in a row per client address, and how long each next answer there waits. */
    public dev.sluice.proxy.auth.FailedLogins failedLogins() {
        return failedLogins;
    }

    public Set<String> sha2Cache() {
        return sha2Cache;
    }

    /** Capture of the statements carried: switched on and off at run time, with its counters. */
    public dev.sluice.proxy.capture.CaptureControl capture() {
        return capture;
    }

    public ProxyStats stats() {
        return stats;
    }

    /** The GTIDs and times of writes acknowledged to clients, per user and overall (read_your_writes_scope). */
    public dev.sluice.proxy.gtid.AcknowledgedWrites acknowledgedWrites() {
        return acknowledgedWrites;
    }

    public boolean passThroughAuth() {
        return config.passThroughAuth();
    }

    public Optional<UserConfig> user(String name) {
        return config.user(name);
    }

    /** What the proxy's greeting claims to be: the last backend greeting seen. */
    public ServerIdentity serverIdentity() {
        ServerIdentity seen = connector.lastIdentity();
        return seen != null ? seen : ServerIdentity.UNKNOWN;
    }

    /** Everything that watches statements (stats, digests, capture), as one. */
    public dev.sluice.proxy.observe.StatementObserver observer() {
        return observer;
    }

    public void addObserver(dev.sluice.proxy.observe.StatementObserver added) {
        observers.add(added);
        observer = dev.sluice.proxy.observe.CompositeObserver.of(observers);
    }

    public void removeObserver(dev.sluice.proxy.observe.StatementObserver removed) {
        observers.remove(removed);
        observer = dev.sluice.proxy.observe.CompositeObserver.of(observers);
    }

    public boolean shuttingDown() {
        return shuttingDown;
    }

    /** Why no {@code role: auto} backend takes writes now, or null when one does (or none is auto). */
    public String noPrimaryReason() {
        return noPrimaryReason;
    }

    /** Whether more than one role auto backend is writable now, none preferred (writes stop). */
    public boolean splitBrain() {
        return splitBrain;
    }

    public void noPrimary(String reason, boolean splitBrain) {
        this.noPrimaryReason = reason;
        this.splitBrain = splitBrain;
    }

    /**
     * A {@code role: auto} backend taken for the primary refused a write with ER_OPTION_PREVENTS_STATEMENT
     * (read_only): the health checks take it for a replica at once and check every backend again.
     */
    public void readOnlySeen(Backend backend) {
        readOnlySeen.accept(backend);
    }

    public void onReadOnlySeen(java.util.function.Consumer<Backend> handler) {
        this.readOnlySeen = handler;
    }

    void shuttingDown(boolean value) {
        shuttingDown = value;
    }
}
