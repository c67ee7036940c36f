package dev.sluice.protocol.packet;

import dev.sluice.protocol.Commands;
import io.netty.buffer.ByteBuf;

/** COM_STMT_RESET (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_stmt_reset.html): drops long data sent for the statement and closes its cursor; answered by an OK. */
public record ComStmtReset(long statementId) implements ClientCommand {

    public static ComStmtReset decode(ByteBuf payload) {
        Fields.header(payload, Commands.COM_STMT_RESET, "ComStmtReset");
        long statementId = Fields.int4(payload, "ComStmtReset.statement_id");
        Fields.end(payload, "ComStmtReset");
        return new ComStmtReset(statementId);
    }

    @Override
    public int command() {
        return Commands.COM_STMT_RESET;
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(Commands.COM_STMT_RESET);
        out.writeIntLE((int) statementId);
    }
}
