package dev.sluice.proxy.capture;

import dev.sluice.config.CaptureConfig;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.packet.ParameterType;
import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.observe.SessionInfo;
import dev.sluice.proxy.observe.StatementContext;
import dev.sluice.proxy.observe.StatementObserver;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The event-loop side of capture: decides what to keep (sampled sessions, filters, minimum
 * duration), copies the few bytes a statement needs, and offers it to the writer's queue without
 * ever waiting. It also follows each captured session's prepared statements (text, parameter
 * count, the parameter types last sent) so that executes can be written with their text and values.
 */
final class CaptureObserver implements StatementObserver {

    /** Statement text (or an execute's payload) kept per statement; longer ones are cut and marked. */
    static final int MAX_TEXT = 1 << 20;
    /** COM_STMT_EXECUTE: command(1) statement_id(4) flags(1) iteration_count(4), then the parameters. */
    private static final int EXECUTE_PARAMETERS = 10;

    private final CaptureWriter writer;
    private final CaptureStats stats;
    private final double sampleRate;
    private final long minNanos;
    private final Set<String> users;
    private final Set<String> schemas;
    private final Set<String> backends;
    /**
     * Whether statement ids in frames and responses are the ones the client uses. When they are
     * not, capture does not pair executes with their prepares rather than pair them wrongly.
     */
    private final boolean clientIds;

    CaptureObserver(CaptureConfig config, CaptureWriter writer, CaptureStats stats, boolean clientIds) {
        this.writer = writer;
        this.stats = stats;
        this.sampleRate = config.sampleRate();
        this.minNanos = config.minDuration().toNanos();
        this.users = config.users();
        this.schemas = config.schemas();
        this.backends = config.backends();
        this.clientIds = clientIds;
    }

    @Override
    public void onSessionStart(SessionInfo session) {
        state(session, true);
    }

    @Override
    public void onCommand(SessionInfo session, StatementContext statement) {
        if (!writer.accepting()) {
            return;
        }
        SessionCapture state = state(session);
        if (!state.sampled || !userWanted(session)) {
            return;
        }
        statement.copy(copyOf(session, state, statement));
    }

    private CapturedStatement copyOf(SessionInfo session, SessionCapture state, StatementContext sql) {
        int command = sql.command();
        ByteBuf frame = sql.frame();
        boolean keep = schemas.isEmpty() || schemas.contains(session.schema());
        int commandIndex = frame.readerIndex() + Packet.HEADER_SIZE;
        int length = frame.writerIndex() - commandIndex;
        return switch (command) {
            case Commands.COM_QUERY -> keep ? query(session, command, frame, sql, true) : null;
            // Prepares are followed even when not kept: a later execute may be.
            case Commands.COM_STMT_PREPARE -> query(session, command, frame, sql, keep);
            case Commands.COM_STMT_EXECUTE -> execute(session, state, frame, commandIndex, length, keep);
            case Commands.COM_STMT_RESET, Commands.COM_STMT_FETCH, Commands.COM_STMT_BULK_EXECUTE ->
                    keep ? statement(session, command, frame, prepared(state, frame, length), true) : null;
            default -> keep ? statement(session, command, frame, null, true) : null;
        };
    }

    @Override
    public void onResponse(SessionInfo session, StatementContext sql, Backend backend, Response response,
                           long latencyNanos) {
        if (!(sql.copy() instanceof CapturedStatement statement)) {
            return;
        }
        if (statement.command == Commands.COM_STMT_PREPARE && response.kind() == Response.Kind.PREPARE_OK && clientIds) {
            state(session).prepared(response.statementId(),
                    new PreparedText(statement.text, statement.truncated, response.params(), statement.source));
            statement.statementId = response.statementId();
        }
        if (statement.keep && latencyNanos >= minNanos) {
            String backendName = backend == null ? null : backend.name();
            if (backends.isEmpty() || backends.contains(backendName)) {
                statement.backend = backendName;
                statement.startNanos = System.nanoTime() - latencyNanos;
                statement.latencyNanos = latencyNanos;
                statement.rowsSent = response.rows();
                statement.rowsAffected = response.affectedRows();
                statement.bytesOut = response.bytes();
                statement.errorCode = response.isError() ? response.errorCode() : 0;
                offer(session, statement);
            }
        }
    }

    @Override
    public void onNoResponseCommand(SessionInfo session, int command, ByteBuf frame) {
        if (!writer.accepting()) {
            return;
        }
        SessionCapture state = state(session);
        if (!state.sampled || !userWanted(session)) {
            return;
        }
        long id = statementId(frame, frame.readableBytes() - Packet.HEADER_SIZE);
        PreparedText prepared = clientIds ? state.statement(id) : null;
        if (command == Commands.COM_STMT_SEND_LONG_DATA) {
            if (prepared != null) {
                prepared.longDataPending = true;
            }
            return;
        }
        state.closed(id);
        boolean keep = (schemas.isEmpty() || schemas.contains(session.schema())) && minNanos == 0
                && (backends.isEmpty() || backends.contains(session.backendName()));
        if (command == Commands.COM_STMT_CLOSE && keep) {
            CapturedStatement close = statement(session, command, frame, prepared, true);
            close.backend = session.backendName();
            close.startNanos = System.nanoTime();
            offer(session, close);
        }
    }

    private CapturedStatement execute(SessionInfo session, SessionCapture state, ByteBuf frame, int commandIndex,
                                      int length, boolean keep) {
        PreparedText prepared = prepared(state, frame, length);
        if (prepared == null) {
            return keep ? statement(session, Commands.COM_STMT_EXECUTE, frame, null, true) : null;
        }
        if (prepared.params > 0) {
            int flagIndex = commandIndex + EXECUTE_PARAMETERS + (prepared.params + 7) / 8;
            if (flagIndex + 2 * prepared.params < frame.writerIndex() && frame.getByte(flagIndex) == 1) {
                List<ParameterType> types = new ArrayList<>(prepared.params);
                for (int i = 0; i < prepared.params; i++) {
                    int at = flagIndex + 1 + 2 * i;
                    types.add(new ParameterType(frame.getUnsignedByte(at), frame.getUnsignedByte(at + 1), null));
                }
                prepared.types = Collections.unmodifiableList(types);
            }
        }
        boolean longData = prepared.longDataPending;
        prepared.longDataPending = false;
        if (!keep) {
            return null;
        }
        boolean cut = length > MAX_TEXT;
        byte[] payload = copy(frame, commandIndex, Math.min(length, MAX_TEXT));
        return new CapturedStatement(Commands.COM_STMT_EXECUTE, session.sessionId(), session.user(),
                session.clientAddress(), session.schema(), prepared.sql, prepared.truncated || cut, prepared.source,
                id(frame, length), prepared.params, payload, prepared.types, longData,
                frame.readableBytes(), true);
    }

    private PreparedText prepared(SessionCapture state, ByteBuf frame, int payloadLength) {
        return clientIds ? state.statement(statementId(frame, payloadLength)) : null;
    }

    /** The statement id of a COM_STMT_* frame as the client knows it, or -1 when capture cannot tell. */
    private long id(ByteBuf frame, int payloadLength) {
        return clientIds ? statementId(frame, payloadLength) : -1;
    }

    /** A COM_QUERY or COM_STMT_PREPARE: its text, read as {@code sql} says. */
    private CapturedStatement query(SessionInfo session, int command, ByteBuf frame, StatementContext sql,
                                    boolean keep) {
        return captured(session, command, frame, null, DigestSource.of(sql), keep);
    }

    /** A statement whose text is that of {@code prepared} when given, else the command's argument. */
    private CapturedStatement statement(SessionInfo session, int command, ByteBuf frame, PreparedText prepared,
                                        boolean keep) {
        return captured(session, command, frame, prepared, prepared == null ? null : prepared.source, keep);
    }

    private CapturedStatement captured(SessionInfo session, int command, ByteBuf frame, PreparedText prepared,
                                       DigestSource source, boolean keep) {
        int argument = frame.readerIndex() + Packet.HEADER_SIZE + 1;
        int length = Math.max(0, frame.writerIndex() - argument);
        byte[] text = null;
        boolean cut = false;
        long id = -1;
        int params = 0;
        if (prepared != null) {
            text = prepared.sql;
            cut = prepared.truncated;
            params = prepared.params;
            id = id(frame, length + 1);
        } else if (carriesText(command)) {
            cut = length > MAX_TEXT;
            text = copy(frame, argument, Math.min(length, MAX_TEXT));
        } else if (command == Commands.COM_STMT_EXECUTE || command == Commands.COM_STMT_CLOSE) {
            id = id(frame, length + 1);
        }
        return new CapturedStatement(command, session.sessionId(), session.user(), session.clientAddress(),
                session.schema(), text, cut, source, id, params, null, null, false, frame.readableBytes(), keep);
    }

    /** Commands whose argument is text worth keeping; never COM_CHANGE_USER's, which carries auth data. */
    private static boolean carriesText(int command) {
        return command == Commands.COM_QUERY || command == Commands.COM_STMT_PREPARE || command == Commands.COM_INIT_DB;
    }

    private static long statementId(ByteBuf frame, int payloadLength) {
        if (payloadLength < 5) {
            return -1;
        }
        return frame.getUnsignedIntLE(frame.readerIndex() + Packet.HEADER_SIZE + 1);
    }

    private static byte[] copy(ByteBuf frame, int index, int length) {
        byte[] bytes = new byte[length];
        frame.getBytes(index, bytes);
        return bytes;
    }

    private boolean userWanted(SessionInfo session) {
        return users.isEmpty() || users.contains(session.user());
    }

    /**
     * Queues a statement; the session's first one carries its {@link SessionState}, read now, as
     * the statement ended: once per session, so capture does not copy variables per statement.
     */
    private void offer(SessionInfo session, CapturedStatement statement) {
        SessionCapture state = state(session);
        if (!state.described) {
            statement.sessionState = new SessionState(state.login, session.loginCollation(), session.changedVariables());
        }
        if (writer.offer(statement)) {
            state.described = true;
            stats.queued();
        } else {
            statement.sessionState = null;
            stats.dropped();
        }
    }

    private SessionCapture state(SessionInfo session) {
        return state(session, false);
    }

    /** {@code login}: the session is logging in now, so all it does is seen. */
    private SessionCapture state(SessionInfo session, boolean login) {
        Object state = session.attributes().get(this);
        if (state == null) {
            state = new SessionCapture(sampleRate >= 1 || ThreadLocalRandom.current().nextDouble() < sampleRate, login);
            session.attributes().put(this, state);
        }
        return (SessionCapture) state;
    }
}
