package dev.sluice.proxy.mirror;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.MirrorConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.UserConfig;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendConnector;
import dev.sluice.proxy.memory.MemoryBudget;
import dev.sluice.proxy.observe.StatementObserver;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mirroring, switched on, off or changed by the config (at start and on reload): the observer on
 * the sessions' side, the queue, and the shadow's connections on an event loop of the mirror's
 * own, so that the shadow's answers are read and compared on no client's thread. The counters
 * live as long as the proxy.
 */
public final class MirrorControl {

    private static final Logger log = LoggerFactory.getLogger(MirrorControl.class);

    private final Consumer<StatementObserver> addObserver;
    private final Consumer<StatementObserver> removeObserver;
    private final MemoryBudget budget;
    private final BackendConnector connector;
    private final SslContext backendTls;
    private final MirrorStats stats = new MirrorStats();
    private Running running;

    /** A mirror at work: what stops it. */
    private record Running(MirrorConfig config, EventLoopGroup group, ShadowLane[] lanes, MirrorQueue queue,
                           MirrorObserver observer, String shadow) {
    }

    public MirrorControl(Consumer<StatementObserver> addObserver, Consumer<StatementObserver> removeObserver,
                         MemoryBudget budget, BackendConnector connector, SslContext backendTls) {
        this.addObserver = addObserver;
        this.removeObserver = removeObserver;
        this.budget = budget;
        this.connector = connector;
        this.backendTls = backendTls;
    }

    /** Starts, stops or restarts mirroring as {@code config} says; nothing when its mirror section did not change. */
    public synchronized void apply(SluiceConfig config) {
        MirrorConfig wanted = config.mirror();
        if (running != null && running.config.equals(wanted)) {
            return;
        }
        stop();
        if (!wanted.enabled()) {
            return;
        }
        Optional<UserConfig> account = wanted.user().isPresent()
                ? Optional.of(new UserConfig(wanted.user().get(), wanted.password().orElse("")))
                : config.users().stream().filter(UserConfig::hasPassword).findFirst();
        if (account.isEmpty()) {
            log.error("mirror: off: no account to log into the shadow with (mirror.user, or a user with a password"
                    + " rather than a password_hash)");
            return;
        }
        Backend server = new Backend(new BackendConfig("shadow", wanted.address().orElseThrow(), BackendConfig.Role.REPLICA,
                1, wanted.connections()));
        ShadowTarget shadow = new ShadowTarget(server, account.get().name(),
                account.get().password().getBytes(StandardCharsets.UTF_8), backendTls, connector.authOptions(),
                NioSocketChannel.class, (int) Math.min(Integer.MAX_VALUE, config.timeouts().connect().toMillis()),
                connector.resolver());
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoop loop = group.next();
        ShadowProblems problems = new ShadowProblems(shadow.address());
        ShadowLane[] lanes = new ShadowLane[wanted.connections()];
        for (int i = 0; i < lanes.length; i++) {
            lanes[i] = new ShadowLane(shadow, loop, stats, problems, wanted.timeout().toMillis());
        }
        MirrorQueue queue = new MirrorQueue(lanes, wanted.queueSize(), wanted.queueBytes(), budget, stats);
        for (ShadowLane lane : lanes) {
            lane.queue(queue);
        }
        MirrorObserver observer = new MirrorObserver(wanted, queue, stats);
        running = new Running(wanted, group, lanes, queue, observer, shadow.address());
        addObserver.accept(observer);
        log.info("mirror: {} to the shadow {} as {} ({} connections, queue {} statements / {} bytes)",
                wanted.statements().configName(), shadow.address(), account.get().name(), wanted.connections(),
                wanted.queueSize(), wanted.queueBytes());
    }

    /** Stops mirroring: copies still waiting are dropped (not counted: nobody asked for them any more). */
    public synchronized void stop() {
        Running was = running;
        running = null;
        if (was == null) {
            return;
        }
        removeObserver.accept(was.observer);
        for (ShadowLane lane : was.lanes) {
            lane.close();
        }
        was.group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        log.info("mirror: stopped");
    }

    public MirrorStats stats() {
        return stats;
    }

    /** Where mirroring stands now. */
    public synchronized MirrorStatus status() {
        Running now = running;
        if (now == null) {
            return new MirrorStatus(false, null, null, 0, 0, 0, 0);
        }
        return new MirrorStatus(true, now.shadow, now.config.statements().configName(), now.config.connections(),
                now.queue.size(), now.queue.bytes(), now.config.queueSize());
    }
}
