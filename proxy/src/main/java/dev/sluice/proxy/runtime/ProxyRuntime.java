package dev.sluice.proxy.runtime;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.UserConfig;
import dev.sluice.protocol.auth.AuthPlugins;
import dev.sluice.protocol.auth.RsaKeys;
import dev.sluice.proxy.auth.AuthWork;
import dev.sluice.proxy.auth.ClientAuth;
import dev.sluice.proxy.auth.FailedLogins;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendConnector;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.proxy.backend.Backends;
import dev.sluice.proxy.backend.KillConnections;
import dev.sluice.proxy.capture.CaptureControl;
import dev.sluice.proxy.frontend.LoginServices;
import dev.sluice.proxy.gtid.AcknowledgedWrites;
import dev.sluice.proxy.kill.KillableSession;
import dev.sluice.proxy.kill.Kills;
import dev.sluice.proxy.kill.LiveSessions;
import dev.sluice.proxy.memory.MemoryBudget;
import dev.sluice.proxy.mirror.MirrorControl;
import dev.sluice.proxy.observe.Observers;
import dev.sluice.proxy.routing.PrimaryStatus;
import dev.sluice.proxy.routing.Router;
import dev.sluice.proxy.routing.SplitRouter;
import dev.sluice.proxy.session.ClientConnections;
import dev.sluice.proxy.session.SessionServices;
import dev.sluice.proxy.split.SplitBackends;
import dev.sluice.proxy.sql.SqlReaders;
import dev.sluice.proxy.stats.ProxyStats;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.ssl.SslContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running proxy's parts, put together once: the live config, the backends and their pools,
 * the router, the client connections and sessions, statement observers and capture, and the
 * counters. Client handlers get only the collaborators they use ({@link #loginServices()},
 * {@link #sessionServices()}); the admin ports, the health checks and tests read the rest here.
 */
public final class ProxyRuntime {

    private static final Logger log = LoggerFactory.getLogger(ProxyRuntime.class);

    /** Replaced as a whole by a config reload; read it afresh rather than keeping it. */
    private volatile SluiceConfig config;
    private final Backends backends;
    /** Backends that joined by discovery, not in the config; replaced as a whole. */
    private List<BackendConfig> joined = List.of();
    private final Router router;
    private final BackendConnector connector;
    private final KillConnections killConnections = new KillConnections();
    private final AuthWork authWork = AuthWork.forThisMachine();
    private final RsaKeys rsaKeys;
    private final SslContext backendTls;
    private final ClientConnections clients = new ClientConnections();
    private final ProxyStats stats = new ProxyStats();
    /** Writes acknowledged to clients, for reads on other connections that must see them. */
    private final AcknowledgedWrites acknowledgedWrites = new AcknowledgedWrites();
    /** What the health checks found of the role auto backends, for statements that find no primary. */
    private final PrimaryStatus primaries = new PrimaryStatus();
    /** Its threshold is the starting config's: a reload keeps the counts, and the threshold. */
    private final FailedLogins failedLogins;
    /** Its limit is the starting config's. */
    private final MemoryBudget bufferedMemory;
    private final Observers observers = new Observers();
    private final CaptureControl capture;
    private final MirrorControl mirror;
    private final LiveSessions sessions = new LiveSessions();
    private final SessionServices sessionServices;
    private final LoginServices loginServices;

    public ProxyRuntime(SluiceConfig config, Router router, BackendConnector connector, RsaKeys rsaKeys,
                        SslContext clientTls, SslContext backendTls) {
        this.config = config;
        this.router = router;
        this.connector = connector;
        this.rsaKeys = rsaKeys;
        this.backendTls = backendTls;
        this.backends = new Backends(config.backends(), connector, config.limits().backendQueueSize(),
                config.timeouts().backendQueue());
        router.backends(backends.list());
        this.failedLogins = new FailedLogins(config.limits().failedLoginsBeforeDelay());
        this.bufferedMemory = MemoryBudget.upTo(config.limits().bufferedMemory());
        if (bufferedMemory.limit() < config.limits().bufferedMemory()) {
            log.info("limits.buffered_memory: {} MiB, a quarter of the JVM's memory (configured: {} MiB)",
                    bufferedMemory.limit() >> 20, config.limits().bufferedMemory() >> 20);
        }
        this.capture = new CaptureControl(observers::add, observers::remove, () -> true, bufferedMemory);
        this.mirror = new MirrorControl(observers::add, observers::remove, bufferedMemory, connector, backendTls);
        Kills kills = new Kills(sessions, killConnections, connector, this::config);
        this.sessionServices = new SessionServices(this::config, kills, observers, clients, stats, bufferedMemory,
                new SqlReaders());
        ClientAuth auth = new ClientAuth(this::config, AuthPlugins.standard(), rsaKeys, authWork, failedLogins);
        SplitBackends split = router instanceof SplitRouter splitRouter
                ? new SplitBackends(splitRouter, backends::pool, backends::list, primaries,
                acknowledgedWrites) : null;
        this.loginServices = new LoginServices(this::config, auth, clientTls, backendTls, connector, router, backends,
                sessionServices, split);
    }

    /** A reload's backends (see {@link Backends#apply}), joined ones kept; the router follows. */
    public synchronized Backends.Changes applyBackends(SluiceConfig newConfig) {
        this.config = newConfig;
        Backends.Changes changes = backends.apply(withJoined(newConfig.backends()), newConfig.limits().backendQueueSize(),
                newConfig.timeouts().backendQueue());
        router.backends(backends.list());
        mirror.apply(newConfig);
        return changes;
    }

    /**
     * The backends that joined by discovery ({@code routing.discover: replica_hosts}) now, beside
     * the configured ones, which win over a joined one of the same name or address.
     */
    public synchronized Backends.Changes joinBackends(List<BackendConfig> nowJoined) {
        this.joined = List.copyOf(nowJoined);
        Backends.Changes changes = backends.apply(withJoined(config.backends()), config.limits().backendQueueSize(),
                config.timeouts().backendQueue());
        router.backends(backends.list());
        return changes;
    }

    private List<BackendConfig> withJoined(List<BackendConfig> configured) {
        List<BackendConfig> all = new ArrayList<>(configured);
        for (BackendConfig candidate : joined) {
            if (configured.stream().noneMatch(c -> c.name().equals(candidate.name())
                    || c.address().equals(candidate.address()))) {
                all.add(candidate);
            }
        }
        return all;
    }

    /** Forgets retired backends whose last connection has closed; called periodically. */
    public void dropDrainedPools() {
        backends.dropDrained();
    }

    /** Replaces the config without touching backends (a reload whose backends did not change). */
    public void config(SluiceConfig newConfig) {
        this.config = newConfig;
        mirror.apply(newConfig);
    }

    public SluiceConfig config() {
        return config;
    }

    public List<Backend> backends() {
        return backends.list();
    }

    public BackendPool pool(Backend backend) {
        return backends.pool(backend);
    }

    /** Every pool, retired backends' included. */
    public Iterable<BackendPool> pools() {
        return backends.pools();
    }

    /** The connections KILLs are sent on. */
    public KillConnections killConnections() {
        return killConnections;
    }

    public Router router() {
        return router;
    }

    public BackendConnector connector() {
        return connector;
    }

    /** The proxy's RSA key pair (the admin port's logins use it too). */
    public RsaKeys rsaKeys() {
        return rsaKeys;
    }

    /** TLS towards backends, or null when off. */
    public SslContext backendTls() {
        return backendTls;
    }

    /** What a client's login uses, and through it its session. */
    public LoginServices loginServices() {
        return loginServices;
    }

    /** What every session's command phase uses. */
    public SessionServices sessionServices() {
        return sessionServices;
    }

    /** The client connections, their count and whether shutdown began. */
    public ClientConnections clientChannels() {
        return clients;
    }

    public ChannelGroup clients() {
        return clients.channels();
    }

    public AtomicInteger clientConnections() {
        return clients.count();
    }

    /** The sessions past login, by the thread id the proxy greeted them with. */
    public LiveSessions sessions() {
        return sessions;
    }

    /** The live session the proxy greeted with {@code connectionId}, if any. */
    public Optional<KillableSession> session(long connectionId) {
        return sessions.byId(connectionId);
    }

    /**
     * {@code backend} stopped answering its health checks: the statements in flight there fail now
     * (see {@link LiveSessions#failStatementsOn}).
     */
    public void failStatementsOn(Backend backend, String reason) {
        sessions.failStatementsOn(backend, reason);
    }

    /** What sessions' large commands and capture's queue hold together. */
    public MemoryBudget bufferedMemory() {
        return bufferedMemory;
    }

    /** Failed logins in a row per client address, and how long each next answer there waits. */
    public FailedLogins failedLogins() {
        return failedLogins;
    }

    /** Capture of the statements carried: switched on and off at run time, with its counters. */
    public CaptureControl capture() {
        return capture;
    }

    /** Copies of statements to a shadow server, and how its answers compared: started and changed by the config. */
    public MirrorControl mirror() {
        return mirror;
    }

    public ProxyStats stats() {
        return stats;
    }

    /** The GTIDs and times of writes acknowledged to clients, per user and overall (read_your_writes_scope). */
    public AcknowledgedWrites acknowledgedWrites() {
        return acknowledgedWrites;
    }

    /** Whether a role auto backend takes writes now, and where sessions report a read_only refusal. */
    public PrimaryStatus primaries() {
        return primaries;
    }

    /** Why no {@code role: auto} backend takes writes now, or null when one does (or none is auto). */
    public String noPrimaryReason() {
        return primaries.noPrimaryReason();
    }

    /** Whether more than one role auto backend is writable now, none preferred (writes stop). */
    public boolean splitBrain() {
        return primaries.splitBrain();
    }

    public boolean passThroughAuth() {
        return config.passThroughAuth();
    }

    public Optional<UserConfig> user(String name) {
        return config.user(name);
    }

    /** Everything that watches statements (stats, digests, capture). */
    public Observers observers() {
        return observers;
    }

    public boolean shuttingDown() {
        return clients.shuttingDown();
    }

    /** The proxy stops: pools, kept KILL connections, auth threads and the resolver close. */
    public void close() {
        capture.close();
        mirror.stop();
        backends.close();
        killConnections.closeAll();
        authWork.close();
        connector.resolver().close();
    }
}
