package dev.sluice.protocol.packet;

import dev.sluice.protocol.Commands;
import io.netty.buffer.ByteBuf;

/**
 * COM_STMT_FETCH (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_stmt_fetch.html):
 * the next {@code numRows} rows of the cursor an execute opened, answered by binary rows and an
 * EOF (or 0xFE OK) with CURSOR_EXISTS or LAST_ROW_SENT.
 */
public record ComStmtFetch(long statementId, long numRows) implements ClientCommand {

    public static ComStmtFetch decode(ByteBuf payload) {
        Fields.header(payload, Commands.COM_STMT_FETCH, "ComStmtFetch");
        long statementId = Fields.int4(payload, "ComStmtFetch.statement_id");
        long numRows = Fields.int4(payload, "ComStmtFetch.num_rows");
        Fields.end(payload, "ComStmtFetch");
        return new ComStmtFetch(statementId, numRows);
    }

    @Override
    public int command() {
        return Commands.COM_STMT_FETCH;
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(Commands.COM_STMT_FETCH);
        out.writeIntLE((int) statementId);
        out.writeIntLE((int) numRows);
    }
}
