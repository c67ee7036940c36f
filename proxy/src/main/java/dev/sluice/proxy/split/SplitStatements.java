package dev.sluice.proxy.split;

import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.backend.TrackedConnection;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One session's prepared statements under the proxy's own ids, which the client keeps while the
 * statements move between backend connections (each with its own backend ids).
 */
final class SplitStatements {

    /** MariaDB: "the statement prepared last on this connection", for pipelined prepare + execute. */
    private static final long LAST_PREPARED = 0xFFFF_FFFFL;
    /** Offset of the statement id in a COM_STMT_* frame and in COM_STMT_PREPARE_OK. */
    private static final int ID_OFFSET = Packet.HEADER_SIZE + 1;

    /** The shared empty map until the session prepares a statement: most never do. */
    private Map<Long, ProxyStatement> byId = Collections.emptyMap();
    private long nextId = 1;
    private long pendingId = -1;
    private ProxyStatement lastPrepared;

    /**
     * The most statements one session keeps prepared: the server's default max_prepared_stmt_count,
     * which bounds all its sessions together. The proxy keeps each one's SQL for as long as it lives.
     */
    static final int MAX_PER_SESSION = 16_382;

    int size() {
        return byId.size();
    }

    /** Another prepare would pass {@link #MAX_PER_SESSION}. */
    boolean full() {
        return byId.size() >= MAX_PER_SESSION;
    }

    /** The statement a COM_STMT_* frame names, or null. */
    ProxyStatement lookup(ByteBuf frame) {
        long id = idOf(frame);
        if (id < 0) {
            return null;
        }
        return id == LAST_PREPARED ? lastPrepared : byId.get(id);
    }

    /** The statement id a COM_STMT_* frame names, as the client sent it (unsigned), or -1 if it has none. */
    static long idOf(ByteBuf frame) {
        return RawPacketDecoder.payloadLength(frame) < 5 ? -1 : frame.getUnsignedIntLE(frame.readerIndex() + ID_OFFSET);
    }

    /** The proxy id given to the prepare in flight, or -1. */
    long pendingId() {
        return pendingId;
    }

    /** Puts the proxy's id into the COM_STMT_PREPARE_OK about to reach the client. */
    void rewritePrepareOk(ByteBuf frame) {
        if (RawPacketDecoder.payloadLength(frame) < 12 || frame.getUnsignedByte(frame.readerIndex() + Packet.HEADER_SIZE) != 0) {
            return;
        }
        pendingId = nextId++;
        frame.setIntLE(frame.readerIndex() + ID_OFFSET, (int) pendingId);
    }

    /** The prepare succeeded on {@code connection}: the statement now exists under its proxy id. */
    ProxyStatement registerPrepared(ByteBuf prepareFrame, RoutedStatement route, Response response,
                                    TrackedConnection connection) {
        if (pendingId < 0) {
            return null;
        }
        ByteBuf payload = RawPacketDecoder.joinedPayload(prepareFrame);
        byte[] sql;
        try {
            sql = ByteBufUtil.getBytes(payload, payload.readerIndex() + 1, payload.readableBytes() - 1);
        } finally {
            payload.release();
        }
        ProxyStatement statement = new ProxyStatement(pendingId, sql, connection.state().schema(), route,
                response.params(), response.columns());
        pendingId = -1;
        if (!(byId instanceof HashMap)) {
            byId = new HashMap<>();
        }
        byId.put(statement.id, statement);
        ConnectionStatements.on(connection).add(statement, response.statementId());
        lastPrepared = statement;
        return statement;
    }

    /** COM_STMT_CLOSE: forgets the statement here and closes it on every connection (deferred); the one closed, or null. */
    ProxyStatement close(ByteBuf frame) {
        ProxyStatement statement = lookup(frame);
        if (statement == null) {
            return null;
        }
        byId.remove(statement.id);
        if (lastPrepared == statement) {
            lastPrepared = null;
        }
        closeEverywhere(statement);
        return statement;
    }

    /** The session ends or resets: every statement goes. */
    void closeAll() {
        for (ProxyStatement statement : byId.values()) {
            closeEverywhere(statement);
        }
        byId.clear();
        lastPrepared = null;
    }

    private static void closeEverywhere(ProxyStatement statement) {
        List<TrackedConnection> connections = new ArrayList<>(statement.backendIds().keySet());
        for (TrackedConnection connection : connections) {
            if (connection.attachment() instanceof ConnectionStatements statements) {
                statements.close(statement);
            }
        }
    }
}
