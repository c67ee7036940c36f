package dev.sluice.proxy.backend;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.frame.PacketEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/** Frames for the commands the proxy sends on its own account (sequence id 0). */
public final class OwnCommands {

    private OwnCommands() {
    }

    public static ByteBuf query(ByteBufAllocator alloc, String sql) {
        return withArgument(alloc, Commands.COM_QUERY, sql.getBytes(StandardCharsets.UTF_8));
    }

    public static ByteBuf initDb(ByteBufAllocator alloc, String schema) {
        return withArgument(alloc, Commands.COM_INIT_DB, schema.getBytes(StandardCharsets.UTF_8));
    }

    public static ByteBuf resetConnection(ByteBufAllocator alloc) {
        return withArgument(alloc, Commands.COM_RESET_CONNECTION, new byte[0]);
    }

    public static ByteBuf quit(ByteBufAllocator alloc) {
        return withArgument(alloc, Commands.COM_QUIT, new byte[0]);
    }

    public static ByteBuf stmtPrepare(ByteBufAllocator alloc, byte[] sql) {
        return withArgument(alloc, Commands.COM_STMT_PREPARE, sql);
    }

    public static ByteBuf stmtClose(ByteBufAllocator alloc, long statementId) {
        ByteBuf frame = alloc.buffer(9);
        frame.writeMediumLE(5).writeByte(0).writeByte(Commands.COM_STMT_CLOSE).writeIntLE((int) statementId);
        return frame;
    }

    private static ByteBuf withArgument(ByteBufAllocator alloc, int command, byte[] argument) {
        if (1 + argument.length < Packet.MAX_PAYLOAD) {
            ByteBuf frame = alloc.buffer(5 + argument.length);
            frame.writeMediumLE(1 + argument.length).writeByte(0).writeByte(command).writeBytes(argument);
            return frame;
        }
        // A prepare re-sent on another connection in split mode can be a client's statement of 16 MiB or more.
        ByteBuf payload = alloc.buffer(1 + argument.length).writeByte(command).writeBytes(argument);
        try {
            return PacketEncoder.encodeToBuffer(alloc, 0, payload);
        } finally {
            payload.release();
        }
    }
}
