package dev.sluice.proxy.backend;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.auth.AuthPlugins;
import dev.sluice.protocol.auth.ClientAuthExchange;
import dev.sluice.protocol.auth.ClientAuthOptions;
import dev.sluice.protocol.auth.ClientStep;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.protocol.packet.ErrPacket;
import dev.sluice.protocol.packet.HandshakeResponse41;
import dev.sluice.protocol.packet.HandshakeV10;
import dev.sluice.protocol.packet.SslRequest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.concurrent.Promise;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The client side of one login to a backend, on behalf of a client the proxy already
 * authenticated: greeting, optional TLS, HandshakeResponse41, the auth plugin's exchange. On OK it
 * replaces itself (and the frame decoder) with a {@link BackendConnection}.
 */
final class BackendLoginHandler extends ChannelInboundHandlerAdapter {

    private static final Map<String, String> CONNECT_ATTRIBUTES = connectAttributes();

    private final Backend backend;
    private final LoginRequest request;
    private final AuthPlugins plugins;
    private final SslContext tls;
    private final Promise<BackendConnection> promise;
    private final java.util.function.Consumer<ServerIdentity> greetingSeen;
    private final boolean framed;
    private final ClientAuthOptions authOptions;

    private ClientAuthExchange auth;
    private HandshakeV10 greeting;
    private long capabilities;
    private int sequenceId;

    BackendLoginHandler(Backend backend, LoginRequest request, AuthPlugins plugins, SslContext tls,
                        ClientAuthOptions authOptions, Promise<BackendConnection> promise,
                        java.util.function.Consumer<ServerIdentity> greetingSeen, boolean framed) {
        this.framed = framed;
        this.authOptions = authOptions;
        this.backend = backend;
        this.request = request;
        this.plugins = plugins;
        this.tls = tls;
        this.promise = promise;
        this.greetingSeen = greetingSeen;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            sequenceId = RawPacketDecoder.sequenceId(frame);
            ByteBuf payload = RawPacketDecoder.payload(frame);
            if (greeting == null) {
                onGreeting(ctx, payload);
            } else {
                onAuthPacket(ctx, payload);
            }
        } catch (ProtocolException e) {
            fail(ctx, new BackendLoginException(BackendLoginException.BACKEND_UNAVAILABLE, "HY000",
                    "backend " + backend.name() + " sent an unreadable login packet: " + e.getMessage(), false));
        } finally {
            frame.release();
        }
    }

    private void onGreeting(ChannelHandlerContext ctx, ByteBuf payload) {
        if (payload.isReadable() && payload.getUnsignedByte(payload.readerIndex()) == ErrPacket.HEADER) {
            ErrPacket err = ErrPacket.decode(payload, 0);
            fail(ctx, new BackendLoginException(err.errorCode(), err.sqlState() == null ? "HY000" : err.sqlState(),
                    "backend " + backend.name() + " refused the connection: " + err.errorMessage(), true));
            return;
        }
        greeting = HandshakeV10.decode(payload);
        greetingSeen.accept(new ServerIdentity(greeting.serverVersion(), greeting.capabilities(), greeting.characterSet()));
        long shaping = request.responseShaping();
        if (framed) {
            // Split mode learns what statements change from the server's session tracking.
            shaping |= Capabilities.CLIENT_SESSION_TRACK;
        }
        capabilities = CapabilityPolicy.towardsBackend(shaping, greeting.capabilities(),
                request.schema() != null, tls != null);
        if (tls != null) {
            if (!Capabilities.has(greeting.capabilities(), Capabilities.CLIENT_SSL)) {
                fail(ctx, new BackendLoginException(BackendLoginException.BACKEND_UNAVAILABLE, "08S01",
                        "backend " + backend.name() + " does not offer TLS, which tls.backend.enabled requires", true));
                return;
            }
            writePacket(ctx, new SslRequest(capabilities, MAX_PACKET, request.charset()));
            SslHandler handler = tls.newHandler(ctx.alloc(), backend.config().address().host(),
                    backend.config().address().port());
            ctx.pipeline().addFirst("tls", handler);
            return;
        }
        sendHandshakeResponse(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent done) {
            if (done.isSuccess()) {
                sendHandshakeResponse(ctx);
            } else {
                fail(ctx, new BackendLoginException(BackendLoginException.BACKEND_UNAVAILABLE, "08S01",
                        "TLS handshake with backend " + backend.name() + " failed: " + done.cause().getMessage(), false));
            }
        }
        ctx.fireUserEventTriggered(evt);
    }

    private static final long MAX_PACKET = 1L << 30;

    private void sendHandshakeResponse(ChannelHandlerContext ctx) {
        auth = new ClientAuthExchange(plugins, request.credential(), authOptions);
        ClientAuthExchange.InitialResponse first = auth.start(greeting.authPluginName(), greeting.scramble());
        writePacket(ctx, new HandshakeResponse41(capabilities, MAX_PACKET, request.charset(), request.user(),
                first.authResponse(), request.schema(), first.pluginName(), CONNECT_ATTRIBUTES));
    }

    private void onAuthPacket(ChannelHandlerContext ctx, ByteBuf payload) {
        ClientStep step = auth.onServerPacket(ByteBufUtil.getBytes(payload));
        switch (step) {
            case ClientStep.Reply reply -> writeRaw(ctx, reply.payload());
            case ClientStep.AwaitResult ignored -> {
            }
            case ClientStep.Authenticated ok -> succeed(ctx);
            case ClientStep.Rejected rejected -> fail(ctx, new BackendLoginException(rejected.errorCode(),
                    rejected.sqlState(), rejected.message(), true));
            case ClientStep.Abort abort -> fail(ctx, new BackendLoginException(1045, "28000",
                    "cannot log into backend " + backend.name() + ": " + abort.reason(), true));
        }
    }

    private void succeed(ChannelHandlerContext ctx) {
        BackendIdentity identity = new BackendIdentity(request.user(), capabilities, request.charset(),
                ServerFlavor.ofVersion(greeting.serverVersion()));
        BackendConnection connection = framed
                ? new TrackedConnection(ctx.channel(), backend, identity, request.schema())
                : new RelayedConnection(ctx.channel(), backend, identity, request.schema());
        connection.threadId(greeting.connectionId());
        ctx.pipeline().replace(this, "backend", connection);
        backend.connectSucceeded();
        // From here on the connection walks packet headers in the bytes as they arrive.
        ctx.pipeline().remove(RawPacketDecoder.class);
        if (!(connection instanceof TrackedConnection tracked)) {
            complete(connection);
            return;
        }
        tracked.startTracking(ok -> complete(connection), error -> {
            promise.tryFailure(new BackendLoginException(error.errorCode(), "HY000",
                    "backend " + backend.name() + " refused session tracking: " + error.errorMessage(), true));
            connection.quit();
        });
    }

    private void complete(BackendConnection connection) {
        if (!promise.trySuccess(connection)) {
            connection.quit();
        }
    }

    private void writePacket(ChannelHandlerContext ctx, dev.sluice.protocol.packet.ClientPacket packet) {
        ByteBuf out = ctx.alloc().buffer();
        out.writeZero(4);
        packet.encode(out);
        finishFrame(ctx, out);
    }

    private void writeRaw(ChannelHandlerContext ctx, byte[] payload) {
        ByteBuf out = ctx.alloc().buffer(4 + payload.length);
        out.writeZero(4).writeBytes(payload);
        finishFrame(ctx, out);
    }

    private void finishFrame(ChannelHandlerContext ctx, ByteBuf out) {
        sequenceId = (sequenceId + 1) & 0xFF;
        out.setMediumLE(0, out.readableBytes() - 4);
        out.setByte(3, sequenceId);
        ctx.writeAndFlush(out);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        fail(ctx, new BackendLoginException(BackendLoginException.BACKEND_UNAVAILABLE, "08S01",
                "backend " + backend.name() + " closed the connection during login", greeting != null));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(ctx, new BackendLoginException(BackendLoginException.BACKEND_UNAVAILABLE, "08S01",
                "login to backend " + backend.name() + " failed: " + cause.getMessage(), greeting != null));
    }

    private void fail(ChannelHandlerContext ctx, BackendLoginException e) {
        promise.tryFailure(e);
        ctx.close();
    }

    private static Map<String, String> connectAttributes() {
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("_client_name", "sluice");
        attributes.put("_client_version", "0.1.0");
        attributes.put("program_name", "sluice");
        return attributes;
    }
}
