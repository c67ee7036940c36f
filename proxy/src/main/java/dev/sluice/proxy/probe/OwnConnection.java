package dev.sluice.proxy.probe;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.auth.AuthPlugins;
import dev.sluice.protocol.auth.ClientAuthExchange;
import dev.sluice.protocol.auth.ClientAuthOptions;
import dev.sluice.protocol.auth.ClientStep;
import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.frame.PacketFrameDecoder;
import dev.sluice.protocol.packet.ClientPacket;
import dev.sluice.protocol.packet.ErrPacket;
import dev.sluice.protocol.packet.HandshakeResponse41;
import dev.sluice.protocol.packet.HandshakeV10;
import dev.sluice.protocol.packet.SslRequest;
import dev.sluice.proxy.backend.Backend;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Function;

/**
 * The proxy's own connection to one server, for the health checker (and the mirror's shadow): it
 * logs in once and then answers one command at a time (COM_PING, a query) with a
 * {@link QueryResult}, or with whatever another reader makes of the answer's packets. It never
 * carries client traffic and never blocks: everything happens on its event loop through promises.
 * A login it starts is always finished or ended with COM_QUIT, so checks never count towards a
 * backend's max_connect_errors.
 */
public final class OwnConnection extends ChannelInboundHandlerAdapter {

    /** No CLIENT_DEPRECATE_EOF: result sets end with classic EOF packets, which {@link ResultReader} expects. */
    private static final long CAPABILITIES = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SECURE_CONNECTION
            | Capabilities.CLIENT_PLUGIN_AUTH | Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA
            | Capabilities.CLIENT_LONG_PASSWORD | Capabilities.CLIENT_TRANSACTIONS | Capabilities.CLIENT_CONNECT_ATTRS;
    private static final int UTF8MB4_GENERAL_CI = 45;
    private static final long MAX_PACKET = 1L << 24;
    private static final Map<String, String> ATTRIBUTES = Map.of("program_name", "sluice-health");

    private final Backend backend;
    private final String user;
    private final byte[] password;
    private final SslContext tls;
    private final Promise<OwnConnection> loggedIn;
    private Channel channel;
    private HandshakeV10 greeting;
    private ClientAuthExchange auth;
    private long capabilities;
    private int sequenceId;
    private boolean ready;
    private Pending<?> pending;

    private final ClientAuthOptions authOptions;

    private OwnConnection(Backend backend, String user, byte[] password, SslContext tls, ClientAuthOptions authOptions,
                             Promise<OwnConnection> loggedIn) {
        this.authOptions = authOptions;
        this.backend = backend;
        this.user = user;
        this.password = password;
        this.tls = tls;
        this.loggedIn = loggedIn;
    }

    /** A command out: the reader of its answer's packets (null until the answer is whole) and who waits for it. */
    private static final class Pending<T> {
        private final Function<ByteBuf, T> reader;
        private final Promise<T> promise;
        private T result;

        Pending(Function<ByteBuf, T> reader, Promise<T> promise) {
            this.reader = reader;
            this.promise = promise;
        }

        /** True when {@code payload} completed the answer ({@link #complete} then hands it over). */
        boolean feed(ByteBuf payload) {
            result = reader.apply(payload);
            return result != null;
        }

        void complete() {
            promise.trySuccess(result);
        }

        void fail(String reason) {
            promise.tryFailure(new ProbeException(reason, false));
        }
    }

    /** Connects and logs in; the future fails with a message naming the backend. */
    public static Future<OwnConnection> open(Backend backend, String user, byte[] password, SslContext tls,
                                         ClientAuthOptions authOptions, EventLoop loop,
                                         Class<? extends Channel> channelType, int connectTimeoutMillis,
                                         io.netty.resolver.AddressResolverGroup<?> resolver) {
        Promise<OwnConnection> loggedIn = loop.newPromise();
        OwnConnection connection = new OwnConnection(backend, user, password, tls, authOptions, loggedIn);
        new Bootstrap().group(loop).channel(channelType).resolver(resolver)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, Math.max(1, connectTimeoutMillis))
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        channel.pipeline().addLast("frames", new PacketFrameDecoder());
                        channel.pipeline().addLast("health", connection);
                    }
                })
                .connect(backend.config().address().host(), backend.config().address().port())
                .addListener((ChannelFutureListener) done -> {
                    if (!done.isSuccess()) {
                        loggedIn.tryFailure(new ProbeException("cannot connect: " + message(done.cause()), true));
                    } else {
                        connection.channel = done.channel();
                    }
                });
        return loggedIn;
    }

    public boolean isActive() {
        return ready && channel != null && channel.isActive();
    }

    public Future<QueryResult> ping() {
        return send(Commands.COM_PING, new byte[0], new ResultReader(capabilities)::accept);
    }

    public Future<QueryResult> query(String sql) {
        return send(Commands.COM_QUERY, sql.getBytes(StandardCharsets.UTF_8), new ResultReader(capabilities)::accept);
    }

    /** The capabilities the login negotiated: what the answers' layout depends on. */
    public long capabilities() {
        return capabilities;
    }

    /**
     * Sends {@code command} with {@code argument}; the answer's packets go to {@code reader} in
     * order until it returns a result, which completes the future. One command at a time.
     */
    public <T> Future<T> send(int command, byte[] argument, Function<ByteBuf, T> reader) {
        Promise<T> result = channel.eventLoop().newPromise();
        if (!isActive() || pending != null) {
            result.setFailure(new ProbeException(pending != null ? "a check is still running" : "connection closed", false));
            return result;
        }
        pending = new Pending<>(reader, result);
        ByteBuf frame = channel.alloc().buffer(5 + argument.length);
        frame.writeMediumLE(1 + argument.length).writeByte(0).writeByte(command).writeBytes(argument);
        channel.writeAndFlush(frame).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
        return result;
    }

    /** COM_QUIT, then close. */
    public void close() {
        if (channel == null) {
            return;
        }
        if (ready && channel.isActive()) {
            ByteBuf quit = channel.alloc().buffer(5);
            quit.writeMediumLE(1).writeByte(0).writeByte(Commands.COM_QUIT);
            channel.writeAndFlush(quit).addListener(ChannelFutureListener.CLOSE);
        } else {
            channel.close();
        }
        ready = false;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Packet packet = (Packet) msg;
        try {
            sequenceId = packet.sequenceId();
            ByteBuf payload = packet.payload();
            if (greeting == null) {
                onGreeting(ctx, payload);
            } else if (!ready) {
                onAuth(ctx, payload);
            } else if (pending != null) {
                Pending<?> answer = pending;
                if (answer.feed(payload)) {
                    // Cleared first: whoever waits may send the next command at once.
                    pending = null;
                    answer.complete();
                }
            }
        } catch (ProtocolException e) {
            fail(ctx, "unreadable packet: " + e.getMessage());
        } finally {
            packet.release();
        }
    }

    private void onGreeting(ChannelHandlerContext ctx, ByteBuf payload) {
        if (payload.isReadable() && payload.getUnsignedByte(payload.readerIndex()) == ErrPacket.HEADER) {
            ErrPacket err = ErrPacket.decode(payload, 0);
            loggedIn.tryFailure(new ProbeException("refused: " + err.errorCode() + " " + err.errorMessage(), false));
            ctx.close();
            return;
        }
        greeting = HandshakeV10.decode(payload);
        capabilities = CAPABILITIES & greeting.capabilities();
        if (tls != null) {
            if (!Capabilities.has(greeting.capabilities(), Capabilities.CLIENT_SSL)) {
                fail(ctx, "does not offer TLS, which tls.backend.enabled requires");
                return;
            }
            capabilities |= Capabilities.CLIENT_SSL;
            write(ctx, new SslRequest(capabilities, MAX_PACKET, UTF8MB4_GENERAL_CI));
            ctx.pipeline().addFirst("tls", tls.newHandler(ctx.alloc(), backend.config().address().host(),
                    backend.config().address().port()));
            return;
        }
        sendResponse(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent done) {
            if (done.isSuccess()) {
                sendResponse(ctx);
            } else {
                fail(ctx, "TLS handshake failed: " + message(done.cause()));
            }
        }
        ctx.fireUserEventTriggered(evt);
    }

    private void sendResponse(ChannelHandlerContext ctx) {
        auth = new ClientAuthExchange(AuthPlugins.standard(), password, authOptions);
        ClientAuthExchange.InitialResponse first = auth.start(greeting.authPluginName(), greeting.scramble());
        write(ctx, new HandshakeResponse41(capabilities, MAX_PACKET, UTF8MB4_GENERAL_CI, user, first.authResponse(),
                null, first.pluginName(), ATTRIBUTES));
    }

    private void onAuth(ChannelHandlerContext ctx, ByteBuf payload) {
        switch (auth.onServerPacket(ByteBufUtil.getBytes(payload))) {
            case ClientStep.Reply reply -> {
                ByteBuf out = ctx.alloc().buffer(4 + reply.payload().length);
                out.writeMediumLE(reply.payload().length).writeByte(++sequenceId & 0xFF).writeBytes(reply.payload());
                ctx.writeAndFlush(out);
            }
            case ClientStep.AwaitResult ignored -> {
            }
            case ClientStep.Authenticated ok -> {
                ready = true;
                if (!loggedIn.trySuccess(this)) {
                    close();
                }
            }
            case ClientStep.Rejected rejected -> {
                loggedIn.tryFailure(new ProbeException("login as " + user + " refused: " + rejected.errorCode()
                        + " " + rejected.message(), false));
                ctx.close();
            }
            case ClientStep.Abort abort -> fail(ctx, "cannot log in as " + user + ": " + abort.reason());
        }
    }

    private void write(ChannelHandlerContext ctx, ClientPacket packet) {
        ByteBuf out = ctx.alloc().buffer();
        out.writeZero(Packet.HEADER_SIZE);
        packet.encode(out);
        out.setMediumLE(0, out.readableBytes() - Packet.HEADER_SIZE);
        out.setByte(3, ++sequenceId & 0xFF);
        ctx.writeAndFlush(out);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        ready = false;
        loggedIn.tryFailure(new ProbeException("closed the connection during login", false));
        Pending<?> lost = pending;
        pending = null;
        if (lost != null) {
            lost.fail("closed the connection");
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(ctx, message(cause));
    }

    private void fail(ChannelHandlerContext ctx, String reason) {
        loggedIn.tryFailure(new ProbeException(reason, false));
        Pending<?> lost = pending;
        pending = null;
        if (lost != null) {
            lost.fail(reason);
        }
        ready = false;
        ctx.close();
    }

    private static String message(Throwable cause) {
        return cause == null ? "unknown error" : cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    }
}
