package dev.sluice.proxy.backend;

import dev.sluice.protocol.auth.AuthPlugins;
import dev.sluice.protocol.auth.ClientAuthOptions;
import dev.sluice.protocol.frame.RawPacketDecoder;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Opens backend connections and logs them in as a given user. Every login it starts is finished
 * or quit cleanly, never abandoned half-way, so backends do not count the proxy's host towards
 * max_connect_errors (error 1129). A backend that cannot be reached is put on backoff.
 */
public final class BackendConnector implements Connector {

    private final Class<? extends Channel> channelType;
    private final AuthPlugins plugins;
    private final SslContext backendTls;
    private final Duration connectTimeout;
    private final Duration backendRetry;
    private final AtomicReference<ServerIdentity> lastIdentity = new AtomicReference<>();
    private final boolean framed;
    private final ClientAuthOptions authOptions;
    private final OffLoopResolver resolver;
    /** Every connection it opened that is not closed yet; a closed channel leaves the group by itself. */
    private final ChannelGroup channels = new DefaultChannelGroup("backends", GlobalEventExecutor.INSTANCE);

    /**
     * @param framed   split mode: connections track session state and hand on whole packets
     * @param resolver looks backend host names up off the event loops
     */
    public BackendConnector(Class<? extends Channel> channelType, AuthPlugins plugins, SslContext backendTls,
                            ClientAuthOptions authOptions, Duration connectTimeout, Duration backendRetry, boolean framed,
                            OffLoopResolver resolver) {
        this.resolver = resolver;
        this.framed = framed;
        this.authOptions = authOptions;
        this.channelType = channelType;
        this.plugins = plugins;
        this.backendTls = backendTls;
        this.connectTimeout = connectTimeout;
        this.backendRetry = backendRetry;
    }

    /** The last greeting any backend sent, or null before the first. */
    public ServerIdentity lastIdentity() {
        return lastIdentity.get();
    }

    public Class<? extends Channel> channelType() {
        return channelType;
    }

    /** How backend logins may send a full password (see {@link BackendAuthOptions}). */
    public ClientAuthOptions authOptions() {
        return authOptions;
    }

    public Duration connectTimeout() {
        return connectTimeout;
    }

    /** How backend host names are looked up: by every connection to a backend this proxy opens. */
    public OffLoopResolver resolver() {
        return resolver;
    }

    /**
     * A connection that was logged in elsewhere (a pass-through client's own login, relayed):
     * from now on a backend connection like the ones this connector opens, in session mode.
     */
    public BackendConnection adopt(Channel channel, Backend backend, BackendIdentity identity, String schema) {
        return new RelayedConnection(channel, backend, identity, schema);
    }

    /** The backend connections still open, so that shutdown can wait for them to close. */
    public ChannelGroup channels() {
        return channels;
    }

    /** Errors that say the backend cannot be reached, as opposed to the proxy running out of something. */
    private static boolean backendFault(Throwable cause) {
        return cause instanceof java.net.ConnectException || cause instanceof java.net.NoRouteToHostException
                || cause instanceof java.net.UnknownHostException || cause instanceof java.net.PortUnreachableException;
    }

    /**
     * Connects on {@code loop} and logs in; the future fails with a {@link BackendLoginException}.
     * A login that times out while the backend answers others (a loaded machine, thousands of
     * logins at once) is tried once more, and does not put the backend on backoff.
     */
    public Future<BackendConnection> connect(Backend backend, LoginRequest request, EventLoop loop) {
        Promise<BackendConnection> promise = loop.newPromise();
        attempt(backend, request, loop, promise, true);
        return promise;
    }

    private void attempt(Backend backend, LoginRequest request, EventLoop loop, Promise<BackendConnection> outcome,
                         boolean mayRetry) {
        Promise<BackendConnection> promise = loop.newPromise();
        AtomicBoolean timedOutAlive = new AtomicBoolean();
        promise.addListener(done -> {
            if (done.isSuccess()) {
                outcome.trySuccess(promise.getNow());
            } else if (timedOutAlive.get()) {
                attempt(backend, request, loop, outcome, false);
            } else {
                outcome.tryFailure(done.cause());
            }
        });
        Bootstrap bootstrap = new Bootstrap()
                .group(loop)
                .channel(channelType)
                .resolver(resolver)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) connectTimeout.toMillis())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        channels.add(channel);
                        if (backend.config().sendProxyProtocol() && request.origin() != null) {
                            channel.pipeline().addLast("proxy-header", new ProxyHeaderWriter(request.origin()));
                        }
                        channel.pipeline().addLast("frames", new RawPacketDecoder());
                        channel.pipeline().addLast("login", new BackendLoginHandler(backend, request, plugins,
                                backendTls, authOptions, promise, lastIdentity::set, framed));
                    }
                });
        ChannelFuture connect = bootstrap.connect(backend.config().address().host(), backend.config().address().port());
        connect.addListener(done -> {
            if (!done.isSuccess()) {
                String reason = done.cause() == null ? "connect failed" : done.cause().getMessage();
                if (!backendFault(done.cause())) {
                    // The proxy could not even make a socket (out of file descriptors): the backend
                    // is not to blame and stays in rotation.
                    promise.tryFailure(new BackendLoginException(1040, "08004", "Too many connections: the proxy"
                            + " cannot open a connection to backend " + backend.name() + ": "
                            + Causes.rootMessage(done.cause()), true));
                    return;
                }
                backend.connectFailed(System.nanoTime(), backendRetry.toNanos(), reason);
                promise.tryFailure(new BackendLoginException(BackendLoginException.BACKEND_UNAVAILABLE, "08S01",
                        "Can't connect to backend " + backend.name() + " (" + backend.config().address() + "): " + reason,
                        false));
                return;
            }
            // The server must finish the login within the connect timeout too; a backend that
            // accepts and then stalls is as unusable as one that refuses.
            ScheduledFuture<?> timeout = loop.schedule(() -> {
                if (promise.isDone()) {
                    return;
                }
                String message = "backend " + backend.name() + " did not finish the login within "
                        + connectTimeout.toMillis() + " ms";
                boolean alive = mayRetry && backend.answeredWithin(System.nanoTime(), connectTimeout.toNanos());
                timedOutAlive.set(alive);
                // The backend's state first: whoever hears of the failure (a session trying the
                // next backend) must find it on backoff already.
                if (!alive) {
                    backend.connectFailed(System.nanoTime(), backendRetry.toNanos(), "login timed out");
                }
                promise.tryFailure(new BackendLoginException(BackendLoginException.BACKEND_UNAVAILABLE, "08S01",
                        message, false));
                connect.channel().close();
            }, connectTimeout.toMillis(), TimeUnit.MILLISECONDS);
            promise.addListener(result -> timeout.cancel(false));
        });
    }
}
