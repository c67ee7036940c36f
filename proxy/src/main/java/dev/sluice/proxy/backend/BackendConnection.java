package dev.sluice.proxy.backend;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.checksum.AnswerChecksum;
import dev.sluice.protocol.frame.PacketScanner;
import dev.sluice.protocol.response.Response;
import dev.sluice.protocol.response.ResponseTracker;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.ArrayDeque;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A logged-in backend connection in the command phase. Commands go out as the client's own bytes;
 * responses come back as raw chunks that are passed on untouched while a {@link PacketScanner} and
 * a {@link ResponseTracker} read just enough to know where each response ends. Responses to the
 * proxy's own commands (resets, schema changes) are swallowed. Session mode relays a connection
 * as it is ({@link RelayedConnection}); split mode also follows the session state the server
 * reports ({@link TrackedConnection}). Lives on one event loop: every method must be called there.
 */
public abstract sealed class BackendConnection extends ChannelInboundHandlerAdapter
        permits RelayedConnection, TrackedConnection {

    private static final Logger log = LoggerFactory.getLogger(BackendConnection.class);

    final Channel channel;
    private final Backend backend;
    final BackendIdentity identity;
    final ResponseTracker tracker;
    final PacketScanner scanner;
    /** Kept in a field: a method reference made on every read would be an allocation per read. */
    private final PacketScanner.Visitor packetVisitor = this::onPacket;
    /** Room for two at first (it grows): the default 16 slots cost every held connection 56 bytes. */
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>(2);
    private long threadId = -1;

    private ResponseListener listener;
    String schema;
    /** Where the bytes not yet passed on start, in the current read. */
    int segmentStart;
    /** Where the current read's bytes start, and where its last whole packet ends. */
    int chunkStart;
    int packetEnd;
    ByteBuf currentChunk;
    /** Who received bytes in the current read and needs a flush at its end (even if released since). */
    ResponseListener flushTarget;
    private boolean broken;
    private long idleSinceNanos = System.nanoTime();
    private PoolKey poolKey;
    private volatile boolean slotHandedOver;
    private final KillsInFlight kills = new KillsInFlight();

    BackendConnection(Channel channel, Backend backend, BackendIdentity identity, String schema, int inspectLimit) {
        this.channel = channel;
        this.backend = backend;
        this.identity = identity;
        this.tracker = new ResponseTracker(identity.capabilities());
        this.schema = schema;
        this.scanner = new PacketScanner(inspectLimit);
    }

    /** The backend's id for this connection (what its CONNECTION_ID() returns), or -1 when unknown. */
    public long threadId() {
        return threadId;
    }

    /** Set once at login, from the connection id in the backend's greeting. */
    void threadId(long threadId) {
        this.threadId = threadId;
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

    /** The default schema as far as the proxy knows (set at login or by its own COM_INIT_DB). */
    public String schema() {
        return schema;
    }

    /** For a session wanting {@code wanted}: a schema can be selected but never unselected; split mode replays all. */
    boolean serves(String wanted) {
        return wanted != null || schema == null || this instanceof TrackedConnection;
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

    /** A KILL QUERY of this connection's thread is on its way to the server (see {@link #killEnded}). */
    public void killStarted() {
        kills.started();
    }

    /** The server answered a KILL QUERY of this connection's thread; a release held back meanwhile goes ahead. */
    public void killEnded() {
        kills.ended();
    }

    /** Whether {@code release} must wait for the server to answer a KILL of this thread; if so it runs then. */
    boolean releaseAfterKills(Runnable release) {
        return kills.holdRelease(release);
    }

    /**
     * Puts the connection back as its login left it, for another session; {@code onDone} gets
     * whether that worked (false: it must not be reused).
     */
    abstract void resetForNextSession(Consumer<Boolean> onDone);

    /** Given back to its pool: idle from now on. */
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
        expect(command, responseTo, null, null);
    }

    /**
     * As {@link #expect(int, ResponseListener)}; {@code scopedVariables}: for a SET STATEMENT ...
     * FOR, the variables it sets, which the server reports changed though they are back as they
     * were once it is done, so the reports do not change what this connection is known to have
     * (null for other commands); its packets also feed {@code answer} (may be null).
     */
    public void expect(int command, ResponseListener responseTo, List<String> scopedVariables,
                       AnswerChecksum answer) {
        if (Commands.expectsNoResponse(command)) {
            return;
        }
        if (answer != null) {
            answer.begin(identity.capabilities());
        }
        push(new InFlight(command, System.nanoTime(), responseTo, null, null, scopedVariables, answer));
    }

    /** Sends one of the proxy's own commands (a complete packet); its response is swallowed. */
    public void sendOwn(ByteBuf packet, int command, Consumer<Response> onDone) {
        push(new InFlight(command, System.nanoTime(), null, onDone));
        channel.writeAndFlush(packet).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
    }

    /** Client bytes: a command frame, or data the head response waits for. */
    public void write(ByteBuf frame) {
        backend.stats().countBytes(frame.readableBytes(), 0);
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

    void push(InFlight command) {
        if (inFlight.isEmpty()) {
            tracker.begin(command.command());
        }
        inFlight.addLast(command);
    }

    /**
     * One read's bytes, passed on in as few slices as the responses allow (one per read inside a
     * result set) while the scanner walks the packet headers.
     */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf chunk = (ByteBuf) msg;
        try {
            backend.stats().countBytes(0, chunk.readableBytes());
            currentChunk = chunk;
            chunkStart = chunk.readerIndex();
            segmentStart = chunkStart;
            packetEnd = segmentStart;
            scanner.scan(chunk, packetVisitor);
            InFlight head = inFlight.peekFirst();
            endOfRead(head != null ? head.listener() : listener, chunk);
        } catch (ProtocolException e) {
            log.warn("unreadable response from backend {}: {}", backend.name(), e.getMessage());
            fail("unreadable response from " + backend.name() + ": " + e.getMessage());
        } finally {
            currentChunk = null;
            chunk.release();
        }
    }

    /** What is left of the read after its last response end goes to {@code target}. */
    void endOfRead(ResponseListener target, ByteBuf chunk) {
        emit(target, chunk, chunk.writerIndex());
    }

    private void onPacket(int sequenceId, int length, ByteBuf payload, int endIndex) {
        packetEnds(endIndex);
        InFlight head = inFlight.peekFirst();
        if (head == null) {
            // Unsolicited: a server going away says so (ERR 1053, 1927) before closing.
            packetEnd = endIndex;
            return;
        }
        if (head.answer() != null) {
            head.answer().accept(length, payload);
        }
        boolean done = tracker.accept(payload, length);
        if (tracker.awaitsLocalFile() && !Capabilities.has(identity.capabilities(), Capabilities.CLIENT_LOCAL_FILES)) {
            // An honest server asks only when the login allowed it; a rogue one would have the client
            // send a file of its choosing. The request never reaches the client.
            throw new ProtocolException("it asked for a LOCAL INFILE, which this connection did not allow"
                    + " (limits.allow_local_infile is off)");
        }
        inspect(head, sequenceId, length, payload, endIndex);
        packetEnd = endIndex;
        if (done) {
            emit(head.listener(), currentChunk, endIndex);
            completeHead(head);
        }
    }

    /** A packet ends at {@code endIndex} of the current read (before it is read). */
    void packetEnds(int endIndex) {
    }

    /** A packet of the head response, which the tracker has just read. */
    void inspect(InFlight head, int sequenceId, int length, ByteBuf payload, int endIndex) {
    }

    private void completeHead(InFlight head) {
        Response response = tracker.response();
        inFlight.pollFirst();
        long latency = System.nanoTime() - head.startNanos();
        if (head.listener() != null) {
            // Only clients' statements count: the proxy's own resets and schema changes would
            // skew the figures users compare with the backends' Com_* counters.
            backend.stats().recordResponse(latency, response.isError());
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

    /** The read's bytes from where the last emit ended up to {@code endIndex} go to {@code target}. */
    void emit(ResponseListener target, ByteBuf chunk, int endIndex) {
        emitHeld(target, chunk);
        int length = endIndex - segmentStart;
        if (length > 0 && target != null) {
            target.onResponseBytes(chunk.retainedSlice(segmentStart, length));
            flushTarget = target;
        }
        segmentStart = endIndex;
    }

    /** Bytes held back from earlier reads, if any, go to {@code target} before this read's. */
    void emitHeld(ResponseListener target, ByteBuf chunk) {
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ResponseListener target = flushTarget;
        if (target != null) {
            flushTarget = null;
            target.onReadComplete();
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
        closed();
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
        closed();
        if (channel.isActive()) {
            channel.writeAndFlush(OwnCommands.quit(channel.alloc())).addListener(ChannelFutureListener.CLOSE);
        } else {
            // Not connected any more, but maybe not closed yet: whoever waits for its close gets it.
            channel.close();
        }
    }

    /** The connection is no longer usable: what it holds goes. */
    void closed() {
    }

    /** Listeners that pause the client while the backend cannot take more bytes. */
    public interface WritabilityAware {
        void backendWritabilityChanged(boolean writable);
    }
}
