package dev.sluice.protocol.packet;

import dev.sluice.protocol.Commands;
import io.netty.buffer.ByteBuf;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * COM_STMT_PREPARE (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_stmt_prepare.html);
 * the query kept as sent, like {@link ComQuery}'s.
 */
public record ComStmtPrepare(byte[] query) implements ClientCommand {

    public static ComStmtPrepare of(String sql) {
        return new ComStmtPrepare(sql.getBytes(StandardCharsets.UTF_8));
    }

    public static ComStmtPrepare decode(ByteBuf payload) {
        Fields.header(payload, Commands.COM_STMT_PREPARE, "ComStmtPrepare");
        return new ComStmtPrepare(Fields.bytesEof(payload));
    }

    @Override
    public int command() {
        return Commands.COM_STMT_PREPARE;
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(Commands.COM_STMT_PREPARE);
        out.writeBytes(query);
    }

    public String sql() {
        return sql(StandardCharsets.UTF_8);
    }

    public String sql(Charset charset) {
        return new String(query, charset);
    }
}
