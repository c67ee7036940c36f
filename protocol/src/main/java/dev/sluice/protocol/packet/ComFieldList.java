package dev.sluice.protocol.packet;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.Wire;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * COM_FIELD_LIST (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_field_list.html),
 * deprecated but still sent by old clients: the table, then a LIKE wildcard up to the end.
 */
public record ComFieldList(String table, String wildcard) implements ClientCommand {

    public static ComFieldList decode(ByteBuf payload) {
        Fields.header(payload, Commands.COM_FIELD_LIST, "ComFieldList");
        String table = Fields.stringNul(payload, "ComFieldList.table");
        return new ComFieldList(table, Fields.stringEof(payload));
    }

    @Override
    public int command() {
        return Commands.COM_FIELD_LIST;
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(Commands.COM_FIELD_LIST);
        Wire.writeStringNul(out, table);
        out.writeCharSequence(wildcard, StandardCharsets.UTF_8);
    }
}
