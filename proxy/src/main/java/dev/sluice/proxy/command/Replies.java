package dev.sluice.proxy.command;

import dev.sluice.protocol.packet.ClientPacket;
import dev.sluice.protocol.packet.ErrPacket;
import dev.sluice.protocol.packet.OkPacket;
import dev.sluice.protocol.packet.ServerPacket;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/** The proxy's own packets to clients, framed with their sequence id. */
public final class Replies {

    /** ER_ACCESS_DENIED_ERROR. */
    public static final int ACCESS_DENIED = 1045;
    /** ER_MAX_PREPARED_STMT_COUNT_REACHED. */
    public static final int TOO_MANY_PREPARED = 1461;
    /** ER_CON_COUNT_ERROR. */
    public static final int TOO_MANY_CONNECTIONS = 1040;
    /** ER_HOST_NOT_PRIVILEGED: a connection refused for where it comes from. */
    public static final int HOST_NOT_ALLOWED = 1130;
    /** ER_HANDSHAKE_ERROR. */
    public static final int BAD_HANDSHAKE = 1043;
    /** ER_SERVER_SHUTDOWN. */
    public static final int SHUTDOWN_IN_PROGRESS = 1053;
    /** ER_NET_PACKET_TOO_LARGE. */
    public static final int PACKET_TOO_LARGE = 1153;
    /** ER_UNKNOWN_COM_ERROR. */
    public static final int UNKNOWN_COMMAND = 1047;
    /** ER_OPTION_PREVENTS_STATEMENT: what a read_only server answers a write. */
    public static final int READ_ONLY_SERVER = 1290;
    /** ER_UNKNOWN_STMT_HANDLER: a COM_STMT_* names no statement of the session. */
    public static final int UNKNOWN_STATEMENT = 1243;
    /** ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION: a write in START TRANSACTION READ ONLY. */
    public static final int READ_ONLY_TRANSACTION = 1792;
    /** ER_QUERY_INTERRUPTED: a KILL QUERY stopped the statement. */
    public static final int QUERY_INTERRUPTED = 1317;
    /** ER_CONNECTION_KILLED: a KILL ended the session. */
    public static final int CONNECTION_KILLED = 1927;
    /** ER_CLIENT_INTERACTION_TIMEOUT (MySQL 8.0.24+). */
    public static final int IDLE_TIMEOUT = 4031;
    /**
     * ER_CONNECTION_KILLED, as MaxScale answers a backend lost mid-statement. Not CR_SERVER_LOST (2013): libmariadb
     * reports a server ERR carrying one of its own client codes as a malformed packet.
     */
    public static final int BACKEND_LOST = 1927;

    private Replies() {
    }

    public static ByteBuf err(ByteBufAllocator alloc, int sequenceId, int code, String sqlState, String message) {
        return frame(alloc, sequenceId, new ErrPacket(code, sqlState, message));
    }

    public static ByteBuf ok(ByteBufAllocator alloc, int sequenceId, int status) {
        return frame(alloc, sequenceId, OkPacket.of(0, 0, status, 0));
    }

    public static ByteBuf frame(ByteBufAllocator alloc, int sequenceId, ServerPacket packet) {
        return frame(alloc, sequenceId, (java.util.function.Consumer<ByteBuf>) packet::encode);
    }

    public static ByteBuf frame(ByteBufAllocator alloc, int sequenceId, ClientPacket packet) {
        return frame(alloc, sequenceId, (java.util.function.Consumer<ByteBuf>) packet::encode);
    }

    private static ByteBuf frame(ByteBufAllocator alloc, int sequenceId, java.util.function.Consumer<ByteBuf> payload) {
        ByteBuf out = alloc.buffer(64);
        out.writeZero(4);
        payload.accept(out);
        out.setMediumLE(0, out.readableBytes() - 4);
        out.setByte(3, sequenceId);
        return out;
    }

    public static ByteBuf frame(ByteBufAllocator alloc, int sequenceId, byte[] payload) {
        ByteBuf out = alloc.buffer(4 + payload.length);
        out.writeMediumLE(payload.length).writeByte(sequenceId).writeBytes(payload);
        return out;
    }

}
