package dev.sluice.proxy.backend;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.packet.OkPacket;
import dev.sluice.protocol.packet.SessionStateChange;
import dev.sluice.protocol.response.Response;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A split-mode backend connection, shared by sessions statement by statement: the server reports
 * every session variable and schema change in its OK packets (session tracking, asked for right
 * after login), so the connection knows its own session state ({@link #state()}) and a session
 * replays only what differs. Listeners get whole packets only: a packet a read cuts off is held
 * until its end arrives, so an OK can still be rewritten (its state block stripped for a client
 * that did not ask for one) and the proxy's own queries read their rows.
 */
public final class TrackedConnection extends BackendConnection {

    /**
     * Every OK is read whole for its session-state block, however many variables it reports; only
     * packets split across reads are copied, up to this much.
     */
    private static final int INSPECT_LIMIT = 1 << 20;
    private static final List<SessionStateChange> UNNAMED_CHANGE = List.of(new SessionStateChange.StateChange("1", false));

    private final SessionVariables state;
    private boolean stripSessionState;
    private SessionVariables loginValues;
    /**
     * Variables a SET STATEMENT ... FOR set for itself here, whose return to their value the
     * server has not reported yet: it does in the next OK (the statement's own ends before the
     * variables are put back, and a result set's EOF carries no report). Null when none.
     */
    private Set<String> restoring;
    /** What split mode keeps on this connection beside its variables (its prepared statements). */
    private Attachment attachment;
    /** The start of a packet that the last read cut off, held until its end arrives. */
    private CompositeByteBuf partial;
    /** The held packet's end has arrived in this read, at this index. */
    private boolean partialWhole;
    private int partialEnd;

    public TrackedConnection(Channel channel, Backend backend, BackendIdentity identity, String schema) {
        super(channel, backend, identity, schema, INSPECT_LIMIT);
        this.state = new SessionVariables(schema);
    }

    /** Split mode's bookkeeping of what lives on a connection, told when the connection closes or is reset. */
    public interface Attachment {
        /** The connection closed, or COM_RESET_CONNECTION ran on it: nothing prepared there survives. */
        void serverSessionEnded();
    }

    /** What split mode attached to this connection, or null. */
    public Attachment attachment() {
        return attachment;
    }

    public void attach(Attachment attachment) {
        this.attachment = attachment;
    }

    /** What is really set on this connection. */
    public SessionVariables state() {
        return state;
    }

    @Override
    public void schema(String schema) {
        super.schema(schema);
        state.schema(schema);
    }

    /**
     * The current client did not ask for session tracking, which the proxy needs on its backend
     * connections: OK packets reach it without their session state block.
     */
    public void stripSessionState(boolean strip) {
        this.stripSessionState = strip;
    }

    /** The session variables as the login left them: what DEFAULT means here. */
    public SessionVariables loginValues() {
        return loginValues;
    }

    /**
     * One of the proxy's own queries whose rows it reads (frames arrive whole here): each row's
     * payload goes to {@code rows} during the call, then the outcome to {@code onDone}.
     */
    public void sendOwnQuery(String sql, Consumer<ByteBuf> rows, Consumer<Response> onDone) {
        push(new InFlight(Commands.COM_QUERY, System.nanoTime(), null, onDone, rows));
        channel.writeAndFlush(OwnCommands.query(channel.alloc(), sql)).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
    }

    /**
     * Right after login: asks the server to report every session variable, schema and state
     * change in OK packets, and records the values the login left the character set variables at
     * (assigning them to themselves makes the server report them). Not character_set_connection:
     * assigning it, even to itself, resets collation_connection to the character set's default
     * (utf8mb4_general_ci where the handshake asked for utf8mb4_0900_ai_ci); assigning
     * collation_connection sets it too.
     */
    void startTracking(Consumer<Response> onReady, Consumer<Response> onError) {
        String sql = trackingAssignments() + ", character_set_client = @@character_set_client,"
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
     * Session tracking of everything the proxy replays or waits for. A write's GTID: MariaDB reports
     * it as the variable last_gtid (so '*' covers it); MySQL has no such variable and reports the
     * GTIDs the session committed through a tracker of their own.
     */
    private String trackingAssignments() {
        String common = "SET SESSION session_track_system_variables = '*', session_track_schema = ON,"
                + " session_track_state_change = ON";
        return identity.flavor() == ServerFlavor.MYSQL ? common + ", session_track_gtids = OWN_GTID" : common;
    }

    /** COM_RESET_CONNECTION, then what {@link #afterReset} restores. */
    @Override
    void resetForNextSession(Consumer<Boolean> onDone) {
        sendOwn(OwnCommands.resetConnection(channel.alloc()), Commands.COM_RESET_CONNECTION, response -> {
            if (response.isError() || !isUsable()) {
                onDone.accept(false);
            } else {
                afterReset(restored -> onDone.accept(!restored.isError()));
            }
        });
    }

    /**
     * After COM_RESET_CONNECTION: the reset turned session tracking off and put the character set
     * variables back to the server's globals. Both are restored, so the connection is again
     * exactly as its login left it.
     */
    public void afterReset(Consumer<Response> onReady) {
        if (attachment != null) {
            // The reset deallocated every statement prepared here, other sessions' too.
            attachment.serverSessionEnded();
        }
        StringBuilder sql = new StringBuilder(trackingAssignments());
        for (var entry : new TreeMap<>(loginValues.variables()).entrySet()) {
            sql.append(", ").append(entry.getKey()).append(" = ")
                    .append(SessionVariables.literal(entry.getKey(), entry.getValue()));
        }
        sendOwn(OwnCommands.query(channel.alloc(), sql.toString()), Commands.COM_QUERY, response -> {
            state.reset(state.schema());
            state.adoptLoginValues(loginValues);
            onReady.accept(response);
        });
    }

    @Override
    void endOfRead(ResponseListener target, ByteBuf chunk) {
        if (scanner.atBoundary()) {
            super.endOfRead(target, chunk);
            return;
        }
        emit(target, chunk, packetEnd);
        int length = chunk.writerIndex() - packetEnd;
        if (length == 0) {
            return;
        }
        if (partial == null) {
            partial = channel.alloc().compositeBuffer(Integer.MAX_VALUE);
        }
        partial.addComponent(true, chunk.retainedSlice(packetEnd, length));
        segmentStart = chunk.writerIndex();
    }

    @Override
    void packetEnds(int endIndex) {
        if (partial != null && !partialWhole) {
            partialWhole = true;
            partialEnd = endIndex;
        }
    }

    @Override
    void inspect(InFlight head, int sequenceId, int length, ByteBuf payload, int endIndex) {
        if (head.scopedVariables() != null && tracker.isComplete()) {
            if (restoring == null) {
                restoring = new HashSet<>();
            }
            restoring.addAll(head.scopedVariables());
        }
        if (head.rows() != null && tracker.lastPacketWasRow()) {
            head.rows().accept(payload);
        }
        if (tracker.lastPacketWasOk()) {
            ByteBuf rewritten = trackSessionState(head, sequenceId, payload);
            if (rewritten != null) {
                replacePacket(head.listener(), rewritten, length, endIndex);
            }
        } else if (tracker.isComplete() && head.listener() != null && head.scopedVariables() == null
                && restoring == null && tracker.status() >= 0
                && ServerStatus.has(tracker.status(), ServerStatus.SESSION_STATE_CHANGED)) {
            // A result that ends with an EOF (no CLIENT_DEPRECATE_EOF) has the flag and no room for
            // what changed (a stored function's SET): the server tells it in the next OK on this
            // connection. The session is told that something changed, unnamed.
            head.listener().onSessionState(UNNAMED_CHANGE, Set.of());
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

    /**
     * What an OK's session-state block changed is recorded on this connection and told to the
     * listener. Returns the OK without that block when the client did not ask for session
     * tracking (the proxy did, for itself), else null: the packet goes on as it came.
     */
    private ByteBuf trackSessionState(InFlight head, int sequenceId, ByteBuf payload) {
        OkPacket ok = OkPacket.decode(payload.duplicate(), identity.capabilities());
        if (ok.sessionStateChanges() == null) {
            return null;
        }
        Set<String> restored = Set.of();
        if (head.scopedVariables() == null && restoring != null) {
            restored = restoring;
            restoring = null;
        }
        for (SessionStateChange change : ok.sessionStateChanges()) {
            switch (change) {
                case SessionStateChange.SystemVariable variable -> {
                    if (head.scopedVariables() == null) {
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
            head.listener().onSessionState(ok.sessionStateChanges(), restored);
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

    @Override
    void emitHeld(ResponseListener target, ByteBuf chunk) {
        if (!partialWhole) {
            return;
        }
        // The held packet is whole now and goes first, with its end from this read.
        if (partialEnd > segmentStart) {
            partial.addComponent(true, chunk.retainedSlice(segmentStart, partialEnd - segmentStart));
            segmentStart = partialEnd;
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

    @Override
    void closed() {
        releasePartial();
        if (attachment != null) {
            attachment.serverSessionEnded();
        }
    }

    private void releasePartial() {
        if (partial != null) {
            partial.release();
            partial = null;
        }
        partialWhole = false;
    }
}
