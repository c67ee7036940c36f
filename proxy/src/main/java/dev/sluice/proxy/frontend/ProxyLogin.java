package dev.sluice.proxy.frontend;

import dev.sluice.config.UserConfig;
import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.auth.AuthSeed;
import dev.sluice.protocol.auth.CachingSha2Password;
import dev.sluice.protocol.auth.Credential;
import dev.sluice.protocol.auth.MysqlNativePassword;
import dev.sluice.protocol.auth.ServerAuthExchange;
import dev.sluice.protocol.auth.ServerLogin;
import dev.sluice.protocol.auth.ServerStep;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.protocol.packet.HandshakeResponse41;
import dev.sluice.protocol.packet.HandshakeV10;
import dev.sluice.protocol.packet.SslRequest;
import dev.sluice.proxy.auth.AccountCredentials;
import dev.sluice.proxy.auth.AuthWork;
import dev.sluice.proxy.backend.BackendLoginException;
import dev.sluice.proxy.backend.CapabilityPolicy;
import dev.sluice.proxy.backend.LoginRequest;
import dev.sluice.proxy.backend.ServerIdentity;
import dev.sluice.proxy.backend.TrackedConnection;
import dev.sluice.proxy.client.ClientOrigin;
import dev.sluice.proxy.command.Replies;
import dev.sluice.proxy.session.CommandPhase;
import dev.sluice.proxy.session.LingeringClose;
import dev.sluice.proxy.session.RelayPath;
import dev.sluice.proxy.session.StatementPath;
import dev.sluice.proxy.split.SplitPath;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;

/**
 * Login when users are configured: the proxy is the server. It greets with the backends' version
 * and capabilities, takes TLS if the client asks, checks the password with whichever supported
 * plugin the client prefers (mysql_native_password or caching_sha2_password), then gets a backend
 * connection logged in as the same user and only then answers OK, so a client never sees OK for
 * a session that has nowhere to go.
 */
public final class ProxyLogin extends ChannelInboundHandlerAdapter {

    private enum Phase { RESPONSE, AUTH, AUTH_WORK, BACKEND, DONE }

    private final LoginServices services;
    private final HandshakeTimeout timeout;
    private final byte[] seed = AuthSeed.generate();
    private Phase phase = Phase.RESPONSE;
    /** The id in the greeting: clients name this connection by it (KILL QUERY id). */
    private long connectionId;
    private long offered;
    private boolean secure;
    private int sequenceId;
    private HandshakeResponse41 response;
    private UserConfig user;
    private ServerAuthExchange exchange;
    /** What logs into backends as the user: the password, or the SHA1(password) the client's login proved. */
    private Credential backendCredential;

    public ProxyLogin(LoginServices services, HandshakeTimeout timeout) {
        this.services = services;
        this.timeout = timeout;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        timeout.start(ctx);
        ServerIdentity identity = services.serverIdentity();
        offered = CapabilityPolicy.offerToClients(identity.capabilities(), services.clientTls() != null,
                services.config().get().limits().allowLocalInfile());
        connectionId = services.sessions().kills().sessions().nextId();
        HandshakeV10 greeting = HandshakeV10.withSeed(identity.serverVersion(), connectionId, seed, offered,
                identity.charset(), ServerStatus.AUTOCOMMIT, MysqlNativePassword.NAME);
        ctx.writeAndFlush(Replies.frame(ctx.alloc(), 0, greeting));
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            sequenceId = RawPacketDecoder.sequenceId(frame);
            ByteBuf payload = RawPacketDecoder.payload(frame);
            switch (phase) {
                case RESPONSE -> onResponse(ctx, payload);
                case AUTH -> onAuthData(ctx, ByteBufUtil.getBytes(payload));
                case AUTH_WORK -> throw new ProtocolException("an auth packet of " + payload.readableBytes()
                        + " bytes before the answer to the last one");
                case DONE -> {
                    // refused or finished: whatever still comes is dropped
                }
                case BACKEND -> throw new ProtocolException("client packet of " + payload.readableBytes()
                        + " bytes (expected: none until the login completes)");
            }
        } catch (ProtocolException e) {
            refuse(ctx, Replies.BAD_HANDSHAKE, "08S01", "Bad handshake: " + e.getMessage());
        } finally {
            frame.release();
        }
    }

    private void onResponse(ChannelHandlerContext ctx, ByteBuf payload) {
        if (SslRequest.matches(payload) && !secure) {
            SslRequest request = SslRequest.decode(payload);
            if (services.clientTls() == null || !Capabilities.has(request.capabilities(), Capabilities.CLIENT_SSL)) {
                throw new ProtocolException("SSLRequest although TLS was not offered");
            }
            // ClientTlsSwitch has already put the TLS handler in front of this one.
            secure = true;
            return;
        }
        response = HandshakeResponse41.decode(payload);
        if (!secure && services.config().get().tls().client().required()) {
            refuse(ctx, 3159, "HY000", "Connections using insecure transport are prohibited while tls.client.required is on");
            return;
        }
        user = services.auth().user(response.username()).orElse(null);
        String host = ClientOrigin.of(ctx.channel()).host();
        String clientPlugin = Capabilities.has(response.capabilities(), Capabilities.CLIENT_PLUGIN_AUTH)
                ? response.authPluginName() : null;
        String accountPlugin = CachingSha2Password.NAME.equals(clientPlugin) ? CachingSha2Password.NAME
                : MysqlNativePassword.NAME;
        Credential account = user == null ? null : AccountCredentials.of(user);
        ServerLogin login = new ServerLogin(response.username(), host, account, seed, secure, services.auth().rsaKeys(),
                !services.auth().sha2Cache().contains(response.username()));
        exchange = new ServerAuthExchange(services.auth().plugins(), login, accountPlugin);
        phase = Phase.AUTH;
        step(ctx, exchange.start(clientPlugin, response.authResponse()));
    }

    /**
     * A password encrypted with the proxy's RSA key is decrypted off the event loop (a millisecond
     * of CPU that every other session on the loop would wait for); the client is not read meanwhile.
     */
    private void onAuthData(ChannelHandlerContext ctx, byte[] data) {
        if (!exchange.costly(data)) {
            step(ctx, exchange.onClientData(data));
            return;
        }
        ctx.channel().config().setAutoRead(false);
        // One step at a time: a packet already read behind this one must wait for its answer.
        phase = Phase.AUTH_WORK;
        boolean queued = services.auth().work().step(exchange, data, ctx.executor(), (step, failure) -> {
            if (phase != Phase.AUTH_WORK || !ctx.channel().isActive()) {
                return;
            }
            phase = Phase.AUTH;
            if (failure != null) {
                refuse(ctx, Replies.BAD_HANDSHAKE, "08S01", "Bad handshake: " + failure.getMessage());
                return;
            }
            step(ctx, step);
            if (phase == Phase.AUTH) {
                ctx.channel().config().setAutoRead(true);
            }
        });
        if (!queued) {
            services.sessions().stats().loginFailed();
            refuse(ctx, Replies.TOO_MANY_CONNECTIONS, "08004", AuthWork.busy());
        }
    }

    private void step(ChannelHandlerContext ctx, ServerStep step) {
        if (step instanceof ServerStep.Reply reply) {
            ctx.writeAndFlush(Replies.frame(ctx.alloc(), ++sequenceId, reply.payload()));
            return;
        }
        // A verdict: from an address that failed too often in a row, it waits, either way.
        java.time.Duration delay = services.auth().failedLogins().delayFor(ClientOrigin.of(ctx.channel()).address());
        if (delay.isZero()) {
            verdict(ctx, step);
            return;
        }
        phase = Phase.AUTH_WORK;
        timeout.cancel();
        ctx.channel().config().setAutoRead(false);
        ctx.executor().schedule(() -> {
            if (phase == Phase.AUTH_WORK && ctx.channel().isActive()) {
                phase = Phase.AUTH;
                verdict(ctx, step);
            }
        }, delay.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    private void verdict(ChannelHandlerContext ctx, ServerStep step) {
        switch (step) {
            case ServerStep.Reply reply -> throw new IllegalStateException("not a verdict: " + reply);
            case ServerStep.Accept accept -> {
                services.auth().failedLogins().succeeded(ClientOrigin.of(ctx.channel()).address());
                for (byte[] payload : accept.sendBeforeOk()) {
                    ctx.write(Replies.frame(ctx.alloc(), ++sequenceId, payload));
                }
                if (CachingSha2Password.NAME.equals(exchange.pluginName())) {
                    services.auth().sha2Cache().add(user.name());
                }
                backendCredential = accept.credential();
                connectBackend(ctx);
            }
            case ServerStep.Reject reject -> {
                services.sessions().stats().loginFailed();
                if (reject.errorCode() == Replies.ACCESS_DENIED) {
                    services.auth().failedLogins().failed(ClientOrigin.of(ctx.channel()).address());
                }
                refuse(ctx, reject.errorCode(), reject.sqlState(), reject.message());
            }
        }
    }

    private void connectBackend(ChannelHandlerContext ctx) {
        phase = Phase.BACKEND;
        // The client has done its part; what follows is the proxy's own wait for a backend, bounded
        // by the pool's queue and the backend login's timeouts. Thousands of clients connecting at
        // once wait their turn there instead of being cut off as slow handshakes.
        timeout.cancel();
        ctx.channel().config().setAutoRead(false);
        LoginRequest request = new LoginRequest(user.name(), backendCredential,
                CapabilityPolicy.responseShaping(response.capabilities(), offered), response.characterSet(),
                Capabilities.has(response.capabilities(), Capabilities.CLIENT_CONNECT_WITH_DB) ? response.database() : null,
                ClientOrigin.of(ctx.channel()));
        if (services.splitMode()) {
            startSplitSession(ctx, request);
            return;
        }
        new SessionStart(services, ctx.channel()).acquire(request, (connection, pool) -> {
            if (!ctx.channel().isActive()) {
                pool.release(connection);
                return;
            }
            startSession(ctx, RelayPath.pooled(connection, pool, request));
        }, failure -> refuse(ctx, failure.errorCode(), failure.sqlState(), failure.getMessage()));
    }

    /**
     * Split mode: a backend must have taken the user and schema (see {@link SchemaProofs});
     * from then on each statement finds its own connection.
     */
    private void startSplitSession(ChannelHandlerContext ctx, LoginRequest request) {
        Future<Void> proven = services.backends().anyAvailable(System.nanoTime())
                ? services.schemaProofs().prove(request, ctx.channel().eventLoop(),
                        loop -> proveOn(ctx, request, SessionStart.sharedProof(services, ctx.channel())))
                : proveOn(ctx, request, new SessionStart(services, ctx.channel()));
        proven.addListener(done -> ctx.executor().execute(() -> {
            if (done.cause() instanceof BackendLoginException failure) {
                refuse(ctx, failure.errorCode(), failure.sqlState(), failure.getMessage());
            } else if (!done.isSuccess()) {
                refuse(ctx, BackendLoginException.BACKEND_UNAVAILABLE, "08S01", "No backend: " + done.cause());
            } else if (ctx.channel().isActive()) {
                startSession(ctx, new SplitPath(services.splitBackends(), services.auth(),
                        services.config().get().routing(), response.capabilities(), request, request.schema(), seed,
                        secure));
            }
        }));
    }

    /** A backend login as the user with the schema, its connection given back to the pool at once. */
    private Future<Void> proveOn(ChannelHandlerContext ctx, LoginRequest request, SessionStart start) {
        Promise<Void> proof = ctx.channel().eventLoop().newPromise();
        start.acquire(request, (connection, pool) -> {
            pool.releaseTracked((TrackedConnection) connection);
            proof.trySuccess(null);
        }, proof::tryFailure);
        return proof;
    }

    private void startSession(ChannelHandlerContext ctx, StatementPath path) {
        phase = Phase.DONE;
        timeout.cancel();
        ctx.writeAndFlush(Replies.ok(ctx.alloc(), ++sequenceId, ServerStatus.AUTOCOMMIT));
        ctx.pipeline().replace(this, "session", new CommandPhase(services.sessions(), ctx.channel(),
                connectionId, path));
        LoginPacketLimit.afterLogin(ctx, services.config().get().limits().maxPacketSize());
        ctx.channel().config().setAutoRead(true);
    }

    private void refuse(ChannelHandlerContext ctx, int code, String sqlState, String message) {
        if (phase == Phase.DONE) {
            return;
        }
        phase = Phase.DONE;
        timeout.cancel();
        LingeringClose.afterSending(ctx.channel(), Replies.err(ctx.alloc(), ++sequenceId, code, sqlState, message));
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt == dev.sluice.proxy.session.ShutdownEvent.INSTANCE) {
            ctx.close();
            return;
        }
        if (evt == HandshakeTimeout.EXPIRED) {
            refuse(ctx, Replies.BAD_HANDSHAKE, "08S01", "Bad handshake: not completed within "
                    + services.config().get().timeouts().handshake().toMillis() + " ms");
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        services.sessions().stats().protocolError();
        refuse(ctx, Replies.BAD_HANDSHAKE, "08S01", "Bad handshake: " + LoginPacketLimit.describe(cause));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        timeout.cancel();
        phase = Phase.DONE;
        ctx.fireChannelInactive();
    }
}
