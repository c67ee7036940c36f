package dev.sluice.proxy.split;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.frame.PacketEncoder;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.proxy.backend.TrackedConnection;
import io.netty.buffer.ByteBuf;

/**
 * Turns a client's COM_STMT_* frame into one for a given backend connection: the backend's
 * statement id instead of the proxy's, and for COM_STMT_EXECUTE the parameter types when this
 * connection has not seen them yet (clients send types with the first execute only; a statement
 * prepared again on another connection needs them once more).
 *
 * <p>COM_STMT_EXECUTE payload: command(1), statement id(4), flags(1), iteration count(4), then when
 * the statement has parameters: null bitmap ((n + 7) / 8), new-params-bound flag(1), and with the
 * flag set, 2 type bytes per parameter, then the values
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_stmt_execute.html).
 */
final class ExecuteRewriter {

    private static final int ID_OFFSET = Packet.HEADER_SIZE + 1;
    private static final int PARAMETERS_OFFSET = Packet.HEADER_SIZE + 10;

    private ExecuteRewriter() {
    }

    static ByteBuf rewrite(ByteBuf frame, ProxyStatement statement, TrackedConnection connection) {
        long backendId = statement.backendId(connection);
        ConnectionStatements.on(connection).touch(statement);
        frame.setIntLE(frame.readerIndex() + ID_OFFSET, (int) backendId);
        int code = frame.getUnsignedByte(frame.readerIndex() + Packet.HEADER_SIZE);
        if (code != Commands.COM_STMT_EXECUTE || statement.params == 0) {
            return frame;
        }
        int flagIndex = frame.readerIndex() + PARAMETERS_OFFSET + (statement.params + 7) / 8;
        int typesLength = 2 * statement.params;
        if (flagIndex >= frame.writerIndex()) {
            return frame;
        }
        if (frame.getByte(flagIndex) == 1) {
            if (flagIndex + 1 + typesLength <= frame.writerIndex()) {
                statement.types = new byte[typesLength];
                frame.getBytes(flagIndex + 1, statement.types);
            }
            statement.typesSent(connection, true);
            return frame;
        }
        if (statement.typesSent(connection) || statement.types == null) {
            return frame;
        }
        // Types are due here: the same command with the flag set and the types inserted after it,
        // framed anew (an execute of 16 MiB or more comes in several packets and may need one more).
        ByteBuf payload = RawPacketDecoder.joinedPayload(frame);
        ByteBuf withTypes = frame.alloc().buffer(payload.readableBytes() + typesLength);
        try {
            int flagAt = flagIndex - frame.readerIndex() - Packet.HEADER_SIZE;
            withTypes.writeBytes(payload, payload.readerIndex(), flagAt);
            withTypes.writeByte(1);
            withTypes.writeBytes(statement.types);
            withTypes.writeBytes(payload, payload.readerIndex() + flagAt + 1, payload.readableBytes() - flagAt - 1);
            statement.typesSent(connection, true);
            return PacketEncoder.encodeToBuffer(frame.alloc(), 0, withTypes);
        } finally {
            payload.release();
            withTypes.release();
            frame.release();
        }
    }
}
