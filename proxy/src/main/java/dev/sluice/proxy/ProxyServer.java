package dev.sluice.proxy;

import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.UserConfig;
import dev.sluice.protocol.auth.RsaKeys;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendConnection;
import dev.sluice.proxy.backend.BackendConnector;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.proxy.backend.LoginRequest;
import dev.sluice.proxy.backend.ServerIdentity;
import dev.sluice.proxy.balance.Balancer;
import dev.sluice.proxy.frontend.AcceptErrors;
import dev.sluice.proxy.frontend.ClientTlsSwitch;
import dev.sluice.proxy.frontend.ConnectionGate;
import dev.sluice.proxy.frontend.HandshakeTimeout;
import dev.sluice.proxy.frontend.LoginPacketLimit;
import dev.sluice.proxy.frontend.LoginServices;
import dev.sluice.proxy.frontend.PassThroughLogin;
import dev.sluice.proxy.frontend.ProxyHeaders;
import dev.sluice.proxy.frontend.ProxyLogin;
import dev.sluice.proxy.routing.SessionRouter;
import dev.sluice.proxy.routing.SplitRouter;
import dev.sluice.proxy.runtime.ProxyRuntime;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The proxy: listens for clients, owns the event loops, backends and pools, and shuts down
 * gracefully (stop accepting, let statements in flight finish within the shutdown timeout, then
 * close what is left).
 */
public final class ProxyServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ProxyServer.class);
    /** How long shutdown waits for the backend connections to finish closing before it forces them. */
    private static final Duration BACKEND_CLOSE_WAIT = Duration.ofSeconds(2);

    private final SluiceConfig config;
    private final EventLoopGroup group;
    private final Transport transport;
    private final Class<? extends ServerChannel> serverChannelType;
    private final ProxyRuntime runtime;
    private Channel serverChannel;
    private ScheduledFuture<?> evictionTask;
    private dev.sluice.proxy.admin.AdminServices admin;
    private volatile boolean closed;

    private ProxyServer(SluiceConfig config) {
        this.config = config;
        int threads = config.eventLoops() > 0 ? config.eventLoops() : Runtime.getRuntime().availableProcessors();
        this.transport = Transport.select();
        this.group = new MultiThreadIoEventLoopGroup(threads, transport.handlers());
        this.serverChannelType = transport.serverChannel();
        Class<? extends SocketChannel> channelType = transport.socketChannel();
        BackendConnector connector = new BackendConnector(channelType, dev.sluice.protocol.auth.AuthPlugins.standard(),
                TlsContexts.forBackends(config.tls().backend()),
                dev.sluice.proxy.backend.BackendAuthOptions.from(config.tls().backend()), config.timeouts().connect(),
                config.timeouts().backendRetry(), config.routing().mode() == RoutingConfig.Mode.SPLIT,
                dev.sluice.proxy.backend.OffLoopResolver.create());
        RoutingConfig.Balancer balancer = config.routing().balancer();
        this.runtime = new ProxyRuntime(config, config.routing().mode() == RoutingConfig.Mode.SPLIT
                ? new SplitRouter(List.of(), () -> Balancer.of(balancer)) : new SessionRouter(List.of(), Balancer.of(balancer)),
                connector, RsaKeys.generatedOnFirstUse(), TlsContexts.forClients(config.tls().client()),
                TlsContexts.forBackends(config.tls().backend()));
    }

    /** Starts listening; returns once the port is bound. */
    public static ProxyServer start(SluiceConfig config) throws InterruptedException {
        return start(config, null);
    }

    /**
     * Starts listening, with the stats, health checks and admin ports; {@code configFile} (may be
     * null) is what a reload (SIGHUP, file change, admin RELOAD CONFIG) reads again.
     */
    public static ProxyServer start(SluiceConfig config, java.nio.file.Path configFile) throws InterruptedException {
        ProxyServer server = new ProxyServer(config);
        try {
            server.bind();
            server.admin = dev.sluice.proxy.admin.AdminServices.start(server.runtime, configFile);
        } catch (RuntimeException | InterruptedException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /**
     * In session mode every client costs two descriptors (its socket and its backend's); warn when
     * the process may run out before max_client_connections is reached.
     */
    private void checkOpenFileLimit() {
        long limit = OpenFiles.softLimit();
        long needed = 2L * config.limits().maxClientConnections() + 200;
        if (limit > 0 && limit < needed) {
            log.warn("the open-file limit ({}) is below what max_client_connections ({}) may need (about {}): raise it"
                    + " with `ulimit -n {}` (or LimitNOFILE= in a systemd unit) or lower max_client_connections",
                    limit, config.limits().maxClientConnections(), needed, needed);
        }
    }

    private void bind() throws InterruptedException {
        checkOpenFileLimit();
        if (!runtime.passThroughAuth()) {
            probeBackends();
        }
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(serverChannelType)
                .option(ChannelOption.SO_BACKLOG, 4096)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .handler(new AcceptErrors())
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        SluiceConfig current = runtime.config();
                        HandshakeTimeout timeout = new HandshakeTimeout(current.timeouts().handshake());
                        LoginServices logins = runtime.loginServices();
                        ProxyHeaders.install(channel, current, runtime.stats());
                        if (logins.clientTls() != null) {
                            channel.pipeline().addLast("tls-switch", new ClientTlsSwitch(logins.clientTls()));
                        }
                        // Raised to max_packet_size once the client has logged in.
                        channel.pipeline().addLast("frames", new RawPacketDecoder(LoginPacketLimit.BEFORE_LOGIN));
                        channel.pipeline().addLast("gate", new ConnectionGate(runtime.sessionServices()));
                        channel.pipeline().addLast("login", runtime.passThroughAuth()
                                ? new PassThroughLogin(logins, timeout) : new ProxyLogin(logins, timeout));
                    }
                });
        // Capture starts before the first client can connect, so a capture holds whole sessions.
        runtime.capture().configure(config.capture());
        if (config.capture().enabled()) {
            runtime.capture().enable(config.capture());
        }
        runtime.mirror().apply(config);
        serverChannel = bootstrap.bind(config.listen().host(), config.listen().port()).sync().channel();
        // Every second: idle connections beyond each pool's kept ones close a second after a burst.
        evictionTask = group.next().scheduleAtFixedRate(() -> runtime.pools().forEach(
                pool -> pool.evictIdle(runtime.config().timeouts().poolIdle())), 1, 1, TimeUnit.SECONDS);
        if (!transport.note().isEmpty()) {
            log.warn("{}: using {}", transport.note(), transport.name());
        }
        log.info("listening on {} ({} backends, routing {}, balancer {}, auth {}, transport {})", serverChannel.localAddress(),
                runtime.backends().size(), config.routing().mode().configName(), config.routing().balancer().configName(),
                runtime.passThroughAuth() ? "pass-through" : "by the proxy", transport.name());
    }

    /**
     * Logs into each backend once as the first user with a password (else health.user), so the
     * proxy's greeting carries the real server version from the first client on, and a backend that
     * is down is known at once.
     */
    private void probeBackends() {
        // A user's connection may serve its first session; health.user's is only a fallback.
        UserConfig user = config.users().stream().filter(UserConfig::hasPassword).findFirst()
                .or(() -> dev.sluice.proxy.health.HealthAccount.of(config)).orElse(null);
        if (user == null) {
            log.info("backends are first reached by the first login: no user has a password in the config (only"
                    + " password_hash) and there is no health.user to log in with before");
            return;
        }
        for (Backend backend : runtime.backends()) {
            BackendPool pool = runtime.pool(backend);
            LoginRequest probe = new LoginRequest(user.name(), user.password().getBytes(StandardCharsets.UTF_8),
                    dev.sluice.protocol.Capabilities.CLIENT_PROTOCOL_41, 45, null);
            var future = pool.acquire(probe, group.next()).awaitUninterruptibly();
            if (future.isSuccess()) {
                BackendConnection connection = future.getNow();
                connection.channel().eventLoop().execute(() -> pool.release(connection));
                ServerIdentity identity = runtime.loginServices().serverIdentity();
                log.info("backend {} ({}, {}) is up: {}", backend.name(), backend.config().role().configName(),
                        backend.config().address(), identity.serverVersion());
            } else {
                log.warn("backend {} ({}) is not usable at start: {}", backend.name(), backend.config().address(),
                        future.cause().getMessage());
            }
        }
    }

    public ProxyRuntime runtime() {
        return runtime;
    }

    /** The stats, health checks, admin ports and reload (null until started). */
    public dev.sluice.proxy.admin.AdminServices admin() {
        return admin;
    }

    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** The Netty transport the event loops run on: io_uring, epoll or nio. */
    public String transport() {
        return transport.name();
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** Graceful shutdown: see the class comment. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (admin != null) {
            admin.close();
        }
        runtime.clientChannels().shuttingDown(true);
        if (evictionTask != null) {
            evictionTask.cancel(false);
        }
        if (serverChannel != null) {
            serverChannel.close().awaitUninterruptibly();
        }
        runtime.clients().forEach(channel -> channel.pipeline().fireUserEventTriggered(
                dev.sluice.proxy.session.ShutdownEvent.INSTANCE));
        long deadline = System.nanoTime() + config.timeouts().shutdown().toNanos();
        while (!runtime.clients().isEmpty() && System.nanoTime() - deadline < 0) {
            runtime.clients().newCloseFuture().awaitUninterruptibly(50);
        }
        if (!runtime.clients().isEmpty()) {
            log.warn("closing {} sessions still busy after the {} shutdown grace period", runtime.clients().size(),
                    config.timeouts().shutdown());
        }
        runtime.clients().close().awaitUninterruptibly();
        runtime.close();
        awaitBackendsClosed();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    /**
     * Backend connections end asynchronously (COM_QUIT written, then closed), so the event loops
     * must outlive every close: an io_uring loop torn down first finishes the pending closes in its
     * own teardown, when it can no longer take the channels' last tasks (a
     * RejectedExecutionException and its stack per connection).
     */
    private void awaitBackendsClosed() {
        ChannelGroup open = runtime.connector().channels();
        if (!open.newCloseFuture().awaitUninterruptibly(BACKEND_CLOSE_WAIT.toMillis())) {
            log.warn("closing {} backend connections that did not end within {}", open.size(), BACKEND_CLOSE_WAIT);
            open.close().awaitUninterruptibly(BACKEND_CLOSE_WAIT.toMillis());
        }
    }
}
