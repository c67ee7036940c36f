package dev.sluice.protocol.packet;

import dev.sluice.protocol.Commands;
import io.netty.buffer.ByteBuf;

/**
 * COM_STMT_SEND_LONG_DATA (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_stmt_send_long_data.html):
 * a chunk of one parameter's value, appended by the server; nothing is sent back.
 */
public record ComStmtSendLongData(long statementId, int paramId, byte[] data) implements ClientCommand {

    public static ComStmtSendLongData decode(ByteBuf payload) {
        Fields.header(payload, Commands.COM_STMT_SEND_LONG_DATA, "ComStmtSendLongData");
        long statementId = Fields.int4(payload, "ComStmtSendLongData.statement_id");
        int paramId = Fields.int2(payload, "ComStmtSendLongData.param_id");
        return new ComStmtSendLongData(statementId, paramId, Fields.bytesEof(payload));
    }

    @Override
    public int command() {
        return Commands.COM_STMT_SEND_LONG_DATA;
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(Commands.COM_STMT_SEND_LONG_DATA);
        out.writeIntLE((int) statementId);
        out.writeShortLE(paramId);
        out.writeBytes(data);
    }
}
