package dev.sluice.proxy.backend;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.frame.PacketScanner;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.protocol.packet.OkPacket;
import dev.sluice.protocol.packet.SessionStateChange;
import dev.sluice.protocol.response.Response;
import dev.sluice.protocol.response.ResponseTracker;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
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
    /**
     * Split mode reads every OK whole for its session-state block, however many variables it
     * reports; only packets split across reads are copied, up to this much.
     */
    private static final int TRACKED_INSPECT_LIMIT = 1 << 20;

    private final Channel channel;
    private final Backend backend;
    private final BackendIdentity identity;
    private final ResponseTracker tracker;
    private final PacketScanner scanner;
    /** Kept in a field: a method reference made on every read would be an allocation per read. */
    private final PacketScanner.Visitor packetVisitor = this::onPacket;
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
    private final long openedNanos = System.nanoTime();
    private final CommandsInFlight commandsInFlight;
    private long threadId = -1;
    /** Split mode: session state is tracked, and listeners get whole packets only. */
    private final boolean framed;
    private final SessionVariables state;
    private boolean stripSessionState;
    private SessionVariables loginValues;
    /** What split mode keeps on this connection beside its variables (its prepared statements). */
    private Attachment attachment;

    private ResponseListener listener;
    private String schema;
    private int segmentStart;
    /** Where the current read's bytes start, and where its last whole packet ends. */
    private int chunkStart;
    private int packetEnd;
    private ByteBuf currentChunk;
    /**
     * Split mode: the start of a packet that the last read cut off, held until its end arrives, so
     * listeners only ever get whole packets and an OK can still be rewritten.
     */
    private CompositeByteBuf partial;
    /** The held packet's end has arrived in this read, at this index. */
    private boolean partialWhole;
    private int partialEnd;
    /** Who received bytes in the current read and needs a flush at its end (even if released since). */
    private ResponseListener flushTarget;
    private boolean broken;
    private long idleSinceNanos = System.nanoTime();
    private PoolKey poolKey;
    private volatile boolean slotHandedOver;
    /**
     * KILL QUERY statements sent for this connection's thread that the server has not answered:
     * until it has, the connection must not run another session's statement, which a late KILL
     * would interrupt. A release meanwhile waits in {@link #afterKills}.
     */
    private int killsPending;
    private Runnable afterKills;

    public BackendConnection(Channel channel, Backend backend, BackendIdentity identity, String schema, boolean framed,
                             CommandsInFlight commandsInFlight) {
        this.commandsInFlight = commandsInFlight;
        this.channel = channel;
        this.backend = backend;
        this.identity = identity;
        this.tracker = new ResponseTracker(identity.capabilities());
        this.schema = schema;
        this.framed = framed;
        this.scanner = new PacketScanner(framed ? TRACKED_INSPECT_LIMIT : INSPECT_LIMIT);
        this.state = framed ? new SessionVariables(schema) : null;
    }

    /** The backend's id for this connection (what its CONNECTION_ID() returns), or -1 when unknown. */
    public long threadId() {
        return threadId;
    }

    /** Set once at login, from the connection id in the backend's greeting. */
    void threadId(long threadId) {
        this.threadId = threadId;
    }

    /** Split mode's bookkeeping of what lives on a connection, told when the connection closes. */
    public interface Attachment {
        void connectionClosed();
    }

    /** What split mode attached to this connection, or null. */
    public Attachment attachment() {
        return attachment;
    }

    public void attach(Attachment attachment) {
        this.attachment = attachment;
    }

    public boolean framed() {
        return framed;
    }

    /** What is really set on this connection (split mode only). */
    public SessionVariables state() {
        return state;
    }

    /**
     * The current client did not ask for session tracking, which the proxy needs on its backend
     * connections: OK packets reach it without their session state block.
     */
    public void stripSessionState(boolean strip) {
        this.stripSessionState = strip;
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
        if (state != null) {
            state.schema(schema);
        }
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

    /** A KILL QUERY of this connection's thread is on its way to the server (see {@link #killEnded}). */
    public void killStarted() {
        killsPending++;
    }

    /** The server answered a KILL QUERY of this connection's thread; a release held back meanwhile goes ahead. */
    public void killEnded() {
        if (--killsPending == 0 && afterKills != null) {
            Runnable release = afterKills;
            afterKills = null;
            release.run();
        }
    }

    /** Whether {@code release} must wait for the server to answer a KILL of this thread; if so it runs then. */
    boolean releaseAfterKills(Runnable release) {
        if (killsPending == 0) {
            return false;
        }
        afterKills = release;
        return true;
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
        expect(command, responseTo, false);
    }

    /**
     * As {@link #expect(int, ResponseListener)}; {@code scopedVariables}: the command is a SET
     * STATEMENT ... FOR, whose variables the server reports changed though they are back as they
     * were once it is done, so the reports do not change what this connection is known to have.
     */
    public void expect(int command, ResponseListener responseTo, boolean scopedVariables) {
        if (Commands.expectsNoResponse(command)) {
            return;
        }
        push(new InFlight(command, System.nanoTime(), responseTo, null, null, scopedVariables));
    }

    /** Sends one of the proxy's own commands (a complete packet); its response is swallowed. */
    public void sendOwn(ByteBuf packet, int command, Consumer<Response> onDone) {
        push(new InFlight(command, System.nanoTime(), null, onDone));
        channel.writeAndFlush(packet).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
    }

    /**
     * One of the proxy's own queries whose rows it reads (split mode: frames arrive whole): each
     * row's payload goes to {@code rows} during the call, then the outcome to {@code onDone}.
     */
    public void sendOwnQuery(String sql, Consumer<ByteBuf> rows, Consumer<Response> onDone) {
        push(new InFlight(Commands.COM_QUERY, System.nanoTime(), null, onDone, rows));
        channel.writeAndFlush(OwnCommands.query(channel.alloc(), sql)).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
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

    private void push(InFlight command) {
        if (inFlight.isEmpty()) {
            tracker.begin(command.command());
        }
        inFlight.addLast(command);
        commandsInFlight.sent();
    }

    /**
     * One read's bytes, passed on in as few slices as the responses allow (one per read inside a
     * result set) while the scanner walks the packet headers. Split mode also reads each OK's
     * session-state block, strips it for clients that did not ask for one, and hands only whole
     * packets on.
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
            ResponseListener target = head != null ? head.listener() : listener;
            if (framed && !scanner.atBoundary()) {
                emit(target, chunk, packetEnd);
                holdPartial(chunk, packetEnd);
            } else {
                emit(target, chunk, chunk.writerIndex());
            }
        } catch (ProtocolException e) {
            log.warn("unreadable response from backend {}: {}", backend.name(), e.getMessage());
            fail("unreadable response from " + backend.name() + ": " + e.getMessage());
        } finally {
            currentChunk = null;
            chunk.release();
        }
    }

    private void onPacket(int sequenceId, int length, ByteBuf payload, int endIndex) {
        if (partial != null && !partialWhole) {
            partialWhole = true;
            partialEnd = endIndex;
        }
        InFlight head = inFlight.peekFirst();
        if (head == null) {
            // Unsolicited: a server going away says so (ERR 1053, 1927) before closing.
            packetEnd = endIndex;
            return;
        }
        boolean done = tracker.accept(payload, length);
        if (tracker.awaitsLocalFile() && !Capabilities.has(identity.capabilities(), Capabilities.CLIENT_LOCAL_FILES)) {
            // An honest server asks only when the login allowed it; a rogue one would have the client
            // send a file of its choosing. The request never reaches the client.
            throw new ProtocolException("it asked for a LOCAL INFILE, which this connection did not allow"
                    + " (limits.allow_local_infile is off)");
        }
        if (framed) {
            if (head.rows() != null && tracker.lastPacketWasRow()) {
                head.rows().accept(payload);
            }
            if (tracker.lastPacketWasOk()) {
                ByteBuf rewritten = trackSessionState(head, sequenceId, payload);
                if (rewritten != null) {
                    replacePacket(head.listener(), rewritten, length, endIndex);
                }
            }
        }
        packetEnd = endIndex;
        if (done) {
            emit(head.listener(), currentChunk, endIndex);
            completeHead(head);
        }
    }

    /** The packet that ends at {@code endIndex} goes out as {@code rewritten} instead. */
    private void replacePacket(ResponseListener target, ByteBuf rewritten, int length, int endIndex) {
        int start = endIndex - Packet.HEADER_SIZE - length;
        // Not the chunk's readerIndex: the scanner narrows it to the payload during the call.
        if (start >= chunkStart) {
            emit(target, currentChunk, start);
        } else {
            // It began in an earlier read, which held back all of it that it had.
            releasePartial();
        }
        target.onResponseBytes(rewritten);
        flushTarget = target;
        segmentStart = endIndex;
    }

    private void releasePartial() {
        if (partial != null) {
            partial.release();
            partial = null;
        }
        partialWhole = false;
    }

    private void holdPartial(ByteBuf chunk, int from) {
        int length = chunk.writerIndex() - from;
        if (length == 0) {
            return;
        }
        if (partial == null) {
            partial = channel.alloc().compositeBuffer(Integer.MAX_VALUE);
        }
        partial.addComponent(true, chunk.retainedSlice(from, length));
        segmentStart = chunk.writerIndex();
    }

    /**
     * Split mode: what an OK's session-state block changed is recorded on this connection and
     * told to the listener. Returns the OK without that block when the client did not ask for
     * session tracking (the proxy did, for itself), else null: the packet goes on as it came.
     */
    private ByteBuf trackSessionState(InFlight head, int sequenceId, ByteBuf payload) {
        OkPacket ok = OkPacket.decode(payload.duplicate(), identity.capabilities());
        if (ok.sessionStateChanges() == null) {
            return null;
        }
        for (SessionStateChange change : ok.sessionStateChanges()) {
            switch (change) {
                case SessionStateChange.SystemVariable variable -> {
                    if (!head.scopedVariables()) {
                        state.set(variable.name(), variable.value());
                    }
                }
                case SessionStateChange.Schema newSchema -> {
                    state.schema(newSchema.name());
                    schema = state.schema();
                }
                default -> {
                }
            }
        }
        if (head.listener() != null) {
            head.listener().onSessionState(ok.sessionStateChanges());
        }
        if (!stripSessionState || head.listener() == null) {
            return null;
        }
        OkPacket plain = new OkPacket(ok.header(), ok.affectedRows(), ok.lastInsertId(),
                ok.statusFlags() & ~ServerStatus.SESSION_STATE_CHANGED, ok.warnings(), ok.info(), null);
        ByteBuf rewritten = channel.alloc().buffer(32 + ok.info().length());
        rewritten.writeZero(Packet.HEADER_SIZE);
        plain.encode(rewritten);
        rewritten.setMediumLE(0, rewritten.readableBytes() - Packet.HEADER_SIZE);
        rewritten.setByte(3, sequenceId);
        return rewritten;
    }

    private void completeHead(InFlight head) {
        Response response = tracker.response();
        inFlight.pollFirst();
        commandsInFlight.ended(1);
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

    private void emit(ResponseListener target, ByteBuf chunk, int endIndex) {
        int length = endIndex - segmentStart;
        if (partialWhole) {
            // The held packet is whole now and goes first, with its end from this read.
            if (partialEnd > segmentStart) {
                partial.addComponent(true, chunk.retainedSlice(segmentStart, partialEnd - segmentStart));
                segmentStart = partialEnd;
                length = endIndex - segmentStart;
            }
            ByteBuf held = partial;
            partial = null;
            partialWhole = false;
            if (target != null) {
                target.onResponseBytes(held);
                flushTarget = target;
            } else {
                held.release();
            }
        }
        if (length > 0 && target != null) {
            target.onResponseBytes(chunk.retainedSlice(segmentStart, length));
            flushTarget = target;
        }
        segmentStart = endIndex;
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

    /**
     * Split mode, right after login: asks the server to report every session variable, schema and
     * state change in OK packets, and records the values the login left the character set
     * variables at (assigning them to themselves makes the server report them). Not
     * character_set_connection: assigning it, even to itself, resets collation_connection to the
     * character set's default (utf8mb4_general_ci where the handshake asked for
     * utf8mb4_0900_ai_ci); assigning collation_connection sets it too.
     */
    void startTracking(Consumer<Response> onReady, Consumer<Response> onError) {
        String sql = "SET SESSION session_track_system_variables = '*', session_track_schema = ON,"
                + " session_track_state_change = ON, character_set_client = @@character_set_client,"
                + " character_set_results = @@character_set_results, collation_connection = @@collation_connection";
        sendOwn(OwnCommands.query(channel.alloc(), sql), Commands.COM_QUERY, response -> {
            if (response.isError()) {
                onError.accept(response);
                return;
            }
            loginValues = state.copy();
            onReady.accept(response);
        });
    }

    /**
     * Split mode, after COM_RESET_CONNECTION: the reset turned session tracking off and put the
     * character set variables back to the server's globals. Both are restored, so the connection is
     * again exactly as its login left it.
     */
    public void afterReset(Consumer<Response> onReady) {
        StringBuilder sql = new StringBuilder("SET SESSION session_track_system_variables = '*',"
                + " session_track_schema = ON, session_track_state_change = ON");
        for (var entry : new java.util.TreeMap<>(loginValues.variables()).entrySet()) {
            sql.append(", ").append(entry.getKey()).append(" = ")
                    .append(SessionVariables.literal(entry.getKey(), entry.getValue()));
        }
        sendOwn(OwnCommands.query(channel.alloc(), sql.toString()), Commands.COM_QUERY, response -> {
            state.reset(state.schema());
            state.adoptLoginValues(loginValues);
            onReady.accept(response);
        });
    }

    /** The session variables as the login left them (split mode): what DEFAULT means here. */
    public SessionVariables loginValues() {
        return loginValues;
    }

    /** Marks the connection broken, closes it and tells whoever uses it. Idempotent. */
    public void fail(String reason) {
        if (broken) {
            return;
        }
        broken = true;
        releasePartial();
        if (attachment != null) {
            attachment.connectionClosed();
        }
        log.debug("backend connection {} lost: {}", channel, reason);
        channel.close();
        ResponseListener target = listener;
        listener = null;
        commandsInFlight.ended(inFlight.size());
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
        releasePartial();
        listener = null;
        commandsInFlight.ended(inFlight.size());
        inFlight.clear();
        if (attachment != null) {
            attachment.connectionClosed();
        }
        if (channel.isActive()) {
            channel.writeAndFlush(OwnCommands.quit(channel.alloc())).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** Listeners that pause the client while the backend cannot take more bytes. */
    public interface WritabilityAware {
        void backendWritabilityChanged(boolean writable);
    }
}
