package dev.sluice.protocol.packet;

import dev.sluice.protocol.Commands;
import io.netty.buffer.ByteBuf;

/** COM_STMT_CLOSE (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_stmt_close.html): the server sends nothing back. */
public record ComStmtClose(long statementId) implements ClientCommand {

    public static ComStmtClose decode(ByteBuf payload) {
        Fields.header(payload, Commands.COM_STMT_CLOSE, "ComStmtClose");
        long statementId = Fields.int4(payload, "ComStmtClose.statement_id");
        Fields.end(payload, "ComStmtClose");
        return new ComStmtClose(statementId);
    }

    @Override
    public int command() {
        return Commands.COM_STMT_CLOSE;
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(Commands.COM_STMT_CLOSE);
        out.writeIntLE((int) statementId);
    }
}
