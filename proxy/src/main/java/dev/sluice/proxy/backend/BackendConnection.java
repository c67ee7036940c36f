package dev.sluice.proxy.backend;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.frame.PacketScanner;
import dev.sluice.protocol.response.Response;
import dev.sluice.protocol.response.ResponseTracker;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.ArrayDeque;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A logged-in backend connection in the command phase. Commands go out as the client's own bytes;
 * responses come back as raw chunks that are passed on untouched while a {@link PacketScanner} and
 * a {@link ResponseTracker} read just enough to know where each response ends. Responses to the
 * proxy's own commands (resets, schema changes) are swallowed. Lives on one event loop: every
 * method must be called there.
 */
public final class BackendConnection extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(BackendConnection.class);
    /** OK, ERR, EOF, column count and prepare-OK all fit; longer packets are rows or data. */
    private static final int INSPECT_LIMIT = 1024;

    private final Channel channel;
    private final Backend backend;
    private final BackendIdentity identity;
    private final ResponseTracker tracker;
    private final PacketScanner scanner = new PacketScanner(INSPECT_LIMIT);
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
    private final long openedNanos = System.nanoTime();

    private ResponseListener listener;
    private String schema;
    private int segmentStart;
    private ByteBuf currentChunk;
    private boolean forwardedInRead;
    private boolean broken;
    private long idleSinceNanos = System.nanoTime();
    private PoolKey poolKey;
    private volatile boolean slotHandedOver;

    public BackendConnection(Channel channel, Backend backend, BackendIdentity identity, String schema) {
        this.channel = channel;
        this.backend = backend;
        this.identity = identity;
        this.tracker = new ResponseTracker(identity.capabilities());
        this.schema = schema;
    }

    public Channel channel() {
        return channel;
    }

    public Backend backend() {
        return backend;
    }

    public BackendIdentity identity() {
        return identity;
    }

    public long capabilities() {
        return identity.capabilities();
    }

    /** The default schema as far as the proxy knows (set at login or by its own COM_INIT_DB). */
    public String schema() {
        return schema;
    }

    public void schema(String schema) {
        this.schema = schema;
    }

    public boolean isUsable() {
        return !broken && channel.isActive();
    }

    public boolean idle() {
        return inFlight.isEmpty();
    }

    public long idleSinceNanos() {
        return idleSinceNanos;
    }

    public long openedNanos() {
        return openedNanos;
    }

    PoolKey poolKey() {
        return poolKey;
    }

    void poolKey(PoolKey key) {
        this.poolKey = key;
    }

    /** True when this connection's max_connections slot went to someone else before it closed. */
    boolean slotHandedOver() {
        return slotHandedOver;
    }

    void slotHandedOver(boolean handedOver) {
        this.slotHandedOver = handedOver;
    }

    /** After COM_RESET_CONNECTION: session variables are back to the server's defaults. */
    void resetState() {
        idleSinceNanos = System.nanoTime();
    }

    /** Binds the session that receives responses and connection loss from now on. */
    public void listener(ResponseListener listener) {
        this.listener = listener;
    }

    public ResponseListener listener() {
        return listener;
    }

    /** True while the head response waits for client data (LOCAL INFILE, an auth exchange). */
    public boolean expectsClientData() {
        return tracker.inProgress() && tracker.expectsClientData();
    }

    /** Registers a client command whose first frame is about to be written. */
    public void expect(int command, ResponseListener responseTo) {
        if (Commands.expectsNoResponse(command)) {
            return;
        }
        push(new InFlight(command, System.nanoTime(), responseTo, null));
    }

    /** Sends one of the proxy's own commands (a complete packet); its response is swallowed. */
    public void sendOwn(ByteBuf packet, int command, Consumer<Response> onDone) {
        push(new InFlight(command, System.nanoTime(), null, onDone));
        channel.writeAndFlush(packet).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
    }

    /** Client bytes: a command frame, or data the head response waits for. */
    public void write(ByteBuf frame) {
        backend.countBytes(frame.readableBytes(), 0);
        channel.write(frame, channel.voidPromise());
    }

    /** Client data for the head response (LOCAL INFILE contents, auth data). */
    public void writeClientData(ByteBuf frame, int payloadLength) {
        tracker.acceptClient(payloadLength);
        write(frame);
    }

    public void flush() {
        channel.flush();
    }

    private void push(InFlight command) {
        if (inFlight.isEmpty()) {
            tracker.begin(command.command());
        }
        inFlight.addLast(command);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf chunk = (ByteBuf) msg;
        try {
            backend.countBytes(0, chunk.readableBytes());
            currentChunk = chunk;
            segmentStart = chunk.readerIndex();
            scanner.scan(chunk, this::onPacket);
            InFlight head = inFlight.peekFirst();
            ResponseListener target = head != null ? head.listener() : listener;
            emit(target, chunk, chunk.writerIndex());
        } catch (ProtocolException e) {
            fail("unreadable response from " + backend.name() + ": " + e.getMessage());
        } finally {
            currentChunk = null;
            chunk.release();
        }
    }

    private void onPacket(int sequenceId, int length, ByteBuf payload, int endIndex) {
        InFlight head = inFlight.peekFirst();
        if (head == null) {
            // Unsolicited: a server going away says so (ERR 1053, 1927) before closing.
            return;
        }
        if (!tracker.accept(payload, length)) {
            return;
        }
        Response response = tracker.response();
        emit(head.listener(), currentChunk, endIndex);
        inFlight.pollFirst();
        long latency = System.nanoTime() - head.startNanos();
        if (head.listener() != null) {
            // Only clients' statements count: the proxy's own resets and schema changes would
            // skew the figures users compare with the backends' Com_* counters.
            backend.recordResponse(latency, response.isError());
            head.listener().onResponse(head.command(), response, latency);
        }
        if (head.onDone() != null) {
            head.onDone().accept(response);
        }
        InFlight next = inFlight.peekFirst();
        if (next != null) {
            tracker.begin(next.command());
        } else {
            idleSinceNanos = System.nanoTime();
        }
    }

    private void emit(ResponseListener target, ByteBuf chunk, int endIndex) {
        int length = endIndex - segmentStart;
        if (length > 0 && target != null) {
            target.onResponseBytes(chunk.retainedSlice(segmentStart, length));
            forwardedInRead = true;
        }
        segmentStart = endIndex;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (forwardedInRead) {
            forwardedInRead = false;
            ResponseListener target = listener;
            if (target != null) {
                target.onReadComplete();
            }
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        ResponseListener target = listener;
        if (target instanceof WritabilityAware aware) {
            aware.backendWritabilityChanged(channel.isWritable());
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        fail("connection to backend " + backend.name() + " (" + backend.config().address() + ") was closed");
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail("connection to backend " + backend.name() + " failed: " + cause.getMessage());
    }

    /** Marks the connection broken, closes it and tells whoever uses it. Idempotent. */
    public void fail(String reason) {
        if (broken) {
            return;
        }
        broken = true;
        log.debug("backend connection {} lost: {}", channel, reason);
        channel.close();
        ResponseListener target = listener;
        listener = null;
        inFlight.clear();
        if (target != null) {
            target.onBackendLost(reason);
        }
    }

    /** Closes the connection politely (COM_QUIT) without telling any listener. */
    public void quit() {
        if (broken) {
            return;
        }
        broken = true;
        listener = null;
        inFlight.clear();
        if (channel.isActive()) {
            ByteBuf quit = channel.alloc().buffer(5).writeMediumLE(1).writeByte(0).writeByte(Commands.COM_QUIT);
            channel.writeAndFlush(quit).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** Listeners that pause the client while the backend cannot take more bytes. */
    public interface WritabilityAware {
        void backendWritabilityChanged(boolean writable);
    }
}
