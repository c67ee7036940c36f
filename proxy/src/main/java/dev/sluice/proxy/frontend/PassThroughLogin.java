package dev.sluice.proxy.frontend;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.protocol.packet.ErrPacket;
import dev.sluice.protocol.packet.HandshakeResponse41;
import dev.sluice.protocol.packet.HandshakeV10;
import dev.sluice.protocol.packet.SslRequest;
import dev.sluice.protocol.response.ResponseTracker;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendConnection;
import dev.sluice.proxy.backend.BackendIdentity;
import dev.sluice.proxy.backend.BackendLoginException;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.proxy.backend.CapabilityPolicy;
import dev.sluice.proxy.backend.ProxyHeaderWriter;
import dev.sluice.proxy.client.ClientOrigin;
import dev.sluice.proxy.command.Replies;
import dev.sluice.proxy.session.LingeringClose;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import java.util.HashSet;
import java.util.Set;

/**
 * Login without configured users: the client logs into the backend the balancer picked, through
 * the proxy. The greeting and every auth packet are relayed; the proxy only adjusts capability
 * bits (never passing on one it cannot carry), terminates the client's TLS, and renumbers
 * sequence ids when TLS on one side adds an SSLRequest the other side does not see.
 */
public final class PassThroughLogin extends ChannelInboundHandlerAdapter {

    private enum Phase { CONNECTING, GREETED, AUTH, DONE }

    private final LoginServices services;
    private final HandshakeTimeout timeout;
    private final Set<Backend> tried = new HashSet<>();
    private ChannelHandlerContext clientCtx;
    private Channel backendChannel;
    private Backend backend;
    private BackendPool pool;
    private Phase phase = Phase.CONNECTING;
    private long backendCapabilities;
    private dev.sluice.proxy.backend.ServerFlavor backendFlavor;
    private long offered;
    private long negotiated;
    private int characterSet;
    private String database;
    private String username;
    private int sequenceOffset;
    private ResponseTracker tracker;

    public PassThroughLogin(LoginServices services, HandshakeTimeout timeout) {
        this.services = services;
        this.timeout = timeout;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        clientCtx = ctx;
        timeout.start(ctx);
        ctx.channel().config().setAutoRead(false);
        connectNext();
        ctx.fireChannelActive();
    }

    private void connectNext() {
        backend = services.router().pickForSession(tried).orElse(null);
        if (backend == null) {
            fail(0, BackendLoginException.BACKEND_UNAVAILABLE, "No backend available for a new session");
            return;
        }
        tried.add(backend);
        pool = services.backends().pool(backend);
        Channel client = clientCtx.channel();
        pool.reserveSlot(client.eventLoop()).addListener(slot -> {
            if (!slot.isSuccess()) {
                fail(0, 1040, slot.cause().getMessage());
                return;
            }
            if (!client.isActive()) {
                pool.slotFreed();
                return;
            }
            Bootstrap bootstrap = new Bootstrap().group(client.eventLoop()).channel(services.connector().channelType())
                    .resolver(services.connector().resolver())
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) services.connector().connectTimeout().toMillis())
                    .option(ChannelOption.TCP_NODELAY, true)
                    .handler(new io.netty.channel.ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel channel) {
                            backendChannel = channel;
                            if (backend.config().sendProxyProtocol()) {
                                channel.pipeline().addLast("proxy-header",
                                        new ProxyHeaderWriter(ClientOrigin.of(client)));
                            }
                            channel.pipeline().addLast("frames", new RawPacketDecoder());
                            channel.pipeline().addLast("login", new BackendSide());
                        }
                    });
            BackendPool slotOwner = pool;
            bootstrap.connect(backend.config().address().host(), backend.config().address().port())
                    .addListener((io.netty.channel.ChannelFuture connect) -> {
                        if (!connect.isSuccess()) {
                            slotOwner.slotFreed();
                            backend.connectFailed(System.nanoTime(), services.config().get().timeouts().backendRetry().toNanos(),
                                    String.valueOf(connect.cause().getMessage()));
                            if (client.isActive()) {
                                connectNext();
                            }
                            return;
                        }
                        connect.channel().closeFuture().addListener(closed -> slotOwner.slotFreed());
                        if (!client.isActive()) {
                            abandon();
                        }
                    });
        });
    }

    /** The backend's side of the relay until the login completes. */
    private final class BackendSide extends ChannelInboundHandlerAdapter {

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            try {
                if (clientGone) {
                    abandoned.read(backendChannel, frame);
                } else if (phase == Phase.CONNECTING) {
                    onGreeting(frame);
                } else if (phase == Phase.AUTH) {
                    onBackendAuth(frame);
                } else {
                    throw new ProtocolException("backend packet before the client's handshake response");
                }
            } catch (ProtocolException e) {
                fail(1, BackendLoginException.BACKEND_UNAVAILABLE, "backend " + backend.name()
                        + " sent an unreadable login packet: " + e.getMessage());
            } finally {
                frame.release();
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof io.netty.handler.ssl.SslHandshakeCompletionEvent done) {
                if (done.isSuccess()) {
                    sendPendingResponse();
                } else {
                    fail(2, BackendLoginException.BACKEND_UNAVAILABLE, "TLS handshake with backend " + backend.name()
                            + " failed: " + done.cause().getMessage());
                }
            }
            ctx.fireUserEventTriggered(evt);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (phase != Phase.DONE) {
                fail(phase == Phase.CONNECTING ? 0 : 2, BackendLoginException.BACKEND_UNAVAILABLE,
                        "backend " + backend.name() + " closed the connection during login");
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            fail(phase == Phase.CONNECTING ? 0 : 2, BackendLoginException.BACKEND_UNAVAILABLE,
                    "login to backend " + backend.name() + " failed: " + cause.getMessage());
        }
    }

    private void onGreeting(ByteBuf frame) {
        ByteBuf payload = RawPacketDecoder.payload(frame);
        if (payload.isReadable() && payload.getUnsignedByte(payload.readerIndex()) == ErrPacket.HEADER) {
            // The backend refused us (too many connections, host blocked): the client hears it as is.
            phase = Phase.DONE;
            clientCtx.writeAndFlush(frame.retain()).addListener(ChannelFutureListener.CLOSE);
            backendChannel.close();
            return;
        }
        HandshakeV10 greeting = HandshakeV10.decode(payload);
        abandoned.greeted();
        backendCapabilities = greeting.capabilities();
        backendFlavor = dev.sluice.proxy.backend.ServerFlavor.ofVersion(greeting.serverVersion());
        offered = CapabilityPolicy.offerToClients(backendCapabilities, services.clientTls() != null,
                services.config().get().limits().allowLocalInfile());
        HandshakeV10 relayed = new HandshakeV10(greeting.serverVersion(), greeting.connectionId(),
                greeting.authPluginDataPart1(), offered, greeting.characterSet(), greeting.statusFlags(),
                greeting.authPluginDataLength(), greeting.authPluginDataPart2(), greeting.authPluginName());
        phase = Phase.GREETED;
        clientCtx.writeAndFlush(Replies.frame(clientCtx.alloc(), 0, relayed));
        clientCtx.channel().config().setAutoRead(true);
    }

    private ByteBuf pendingResponse;
    private boolean clientGone;
    private final AbandonedLogin abandoned = new AbandonedLogin();
    /** The client switched to TLS (its SSLRequest came before the handshake response). */
    private boolean secure;
    /** Set when the client's side is TLS and the backend's is not. */
    private ClearPasswordGuard clearPasswords;


    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            if (phase == Phase.GREETED) {
                onClientResponse(frame);
            } else if (phase == Phase.AUTH && tracker.expectsClientData()) {
                int length = RawPacketDecoder.payloadLength(frame);
                tracker.acceptClient(length);
                RawPacketDecoder.setSequenceId(frame, RawPacketDecoder.sequenceId(frame) + sequenceOffset);
                backendChannel.writeAndFlush(frame.retain());
            } else if (phase != Phase.DONE) {
                throw new ProtocolException("client packet while the backend's answer was expected");
            }
        } catch (ProtocolException e) {
            fail(RawPacketDecoder.sequenceId(frame) + 1, 1043, "Bad handshake: " + e.getMessage());
        } finally {
            frame.release();
        }
    }

    private void onClientResponse(ByteBuf frame) {
        ByteBuf payload = RawPacketDecoder.payload(frame);
        int clientSequence = RawPacketDecoder.sequenceId(frame);
        if (SslRequest.matches(payload)) {
            if (services.clientTls() == null) {
                throw new ProtocolException("SSLRequest although TLS was not offered");
            }
            secure = true;
            return;
        }
        if (!secure && services.config().get().tls().client().required()) {
            // Refused before anything reaches the backend; fail() still finishes the backend's login.
            fail(clientSequence + 1, 3159, "HY000",
                    "Connections using insecure transport are prohibited while tls.client.required is on");
            return;
        }
        HandshakeResponse41 response = HandshakeResponse41.decode(payload);
        boolean backendTls = services.backendTls() != null;
        if (secure && !backendTls) {
            clearPasswords = new ClearPasswordGuard(response.authPluginName());
            String refused = clearPasswords.refuseResponse();
            if (refused != null) {
                fail(clientSequence + 1, Replies.ACCESS_DENIED, "28000", refused);
                return;
            }
        }
        long capabilities = (response.capabilities() & offered & ~CapabilityPolicy.NEVER & ~Capabilities.CLIENT_SSL)
                | (response.capabilities() & (Capabilities.CLIENT_SSL_VERIFY_SERVER_CERT | Capabilities.CLIENT_REMEMBER_OPTIONS));
        if (backendTls) {
            capabilities |= Capabilities.CLIENT_SSL;
        }
        negotiated = capabilities & backendCapabilities;
        characterSet = response.characterSet();
        username = response.username();
        database = Capabilities.has(capabilities, Capabilities.CLIENT_CONNECT_WITH_DB) ? response.database() : null;
        HandshakeResponse41 relayed = new HandshakeResponse41(capabilities, response.maxPacketSize(),
                response.characterSet(), response.username(), response.authResponse(), response.database(),
                response.authPluginName(), response.connectAttributes());
        int backendSequence = backendTls ? 2 : 1;
        sequenceOffset = backendSequence - clientSequence;
        tracker = new ResponseTracker(negotiated);
        tracker.beginAuth();
        phase = Phase.AUTH;
        abandoned.responded();
        ByteBuf out = Replies.frame(clientCtx.alloc(), backendSequence, relayed);
        if (!backendTls) {
            backendChannel.writeAndFlush(out);
            return;
        }
        pendingResponse = out;
        ByteBuf ssl = Replies.frame(clientCtx.alloc(), 1,
                new SslRequest(capabilities, response.maxPacketSize(), response.characterSet()));
        backendChannel.writeAndFlush(ssl);
        backendChannel.pipeline().addFirst("tls", services.backendTls().newHandler(backendChannel.alloc(),
                backend.config().address().host(), backend.config().address().port()));
    }

    private void sendPendingResponse() {
        ByteBuf out = pendingResponse;
        pendingResponse = null;
        if (out != null) {
            backendChannel.writeAndFlush(out);
        }
    }

    private void onBackendAuth(ByteBuf frame) {
        int length = RawPacketDecoder.payloadLength(frame);
        boolean done = tracker.accept(RawPacketDecoder.payload(frame), length);
        RawPacketDecoder.setSequenceId(frame, RawPacketDecoder.sequenceId(frame) - sequenceOffset);
        String refused = !done && clearPasswords != null ? clearPasswords.refuse(RawPacketDecoder.payload(frame)) : null;
        if (refused != null) {
            fail(RawPacketDecoder.sequenceId(frame), Replies.ACCESS_DENIED, "28000", refused);
            return;
        }
        if (!done) {
            clientCtx.writeAndFlush(frame.retain());
            return;
        }
        phase = Phase.DONE;
        timeout.cancel();
        if (tracker.response().isError()) {
            services.sessions().stats().loginFailed();
            clientCtx.writeAndFlush(frame.retain()).addListener(ChannelFutureListener.CLOSE);
            backendChannel.close();
            return;
        }
        BackendConnection connection = services.connector().adopt(backendChannel, backend,
                new BackendIdentity(null, negotiated, characterSet, backendFlavor), database);
        backendChannel.pipeline().replace("login", "backend", connection);
        backendChannel.pipeline().remove("frames");
        backend.connectSucceeded();
        clientCtx.writeAndFlush(frame.retain());
        clientCtx.pipeline().replace(this, "session", new dev.sluice.proxy.session.CommandPhase(services.sessions(),
                clientCtx.channel(), -1, dev.sluice.proxy.session.RelayPath.passThrough(connection, username)));
        LoginPacketLimit.afterLogin(clientCtx, services.config().get().limits().maxPacketSize());
    }

    private void fail(int sequenceId, int code, String message) {
        fail(sequenceId, code, "08S01", message);
    }

    private void fail(int sequenceId, int code, String sqlState, String message) {
        if (phase == Phase.DONE) {
            return;
        }
        phase = Phase.DONE;
        timeout.cancel();
        if (pendingResponse != null) {
            pendingResponse.release();
            pendingResponse = null;
        }
        abandon();
        LingeringClose.afterSending(clientCtx.channel(), Replies.err(clientCtx.alloc(), sequenceId, code, sqlState, message));
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt == dev.sluice.proxy.session.ShutdownEvent.INSTANCE) {
            ctx.close();
            return;
        }
        if (evt == HandshakeTimeout.EXPIRED) {
            fail(phase == Phase.CONNECTING ? 0 : 2, 1043, "Bad handshake: not completed within "
                    + services.config().get().timeouts().handshake().toMillis() + " ms");
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        services.sessions().stats().protocolError();
        fail(1, 1043, "Bad handshake: " + LoginPacketLimit.describe(cause));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        timeout.cancel();
        if (phase != Phase.DONE) {
            phase = Phase.DONE;
            if (pendingResponse != null) {
                pendingResponse.release();
                pendingResponse = null;
            }
            abandon();
        }
        ctx.fireChannelInactive();
    }

    /** The client left mid-login: the backend's login is finished without it (see {@link AbandonedLogin}). */
    private void abandon() {
        clientGone = true;
        abandoned.start(backendChannel);
    }
}
