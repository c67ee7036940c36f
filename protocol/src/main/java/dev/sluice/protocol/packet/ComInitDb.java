package dev.sluice.protocol.packet;

import dev.sluice.protocol.Commands;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/** COM_INIT_DB (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_init_db.html): USE schema. */
public record ComInitDb(String schema) implements ClientCommand {

    public static ComInitDb decode(ByteBuf payload) {
        Fields.header(payload, Commands.COM_INIT_DB, "ComInitDb");
        return new ComInitDb(Fields.stringEof(payload));
    }

    @Override
    public int command() {
        return Commands.COM_INIT_DB;
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(Commands.COM_INIT_DB);
        out.writeCharSequence(schema, StandardCharsets.UTF_8);
    }
}
