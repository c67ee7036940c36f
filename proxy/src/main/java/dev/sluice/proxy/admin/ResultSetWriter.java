package dev.sluice.proxy.admin;

import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.Wire;
import dev.sluice.protocol.packet.ColumnCount;
import dev.sluice.protocol.packet.ColumnDefinition41;
import dev.sluice.protocol.packet.ColumnTypes;
import dev.sluice.protocol.packet.EofPacket;
import dev.sluice.protocol.packet.ErrPacket;
import dev.sluice.protocol.packet.OkPacket;
import dev.sluice.protocol.packet.ServerPacket;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes admin answers in the text protocol, for clients that did not ask for
 * CLIENT_DEPRECATE_EOF (the admin port does not offer it): column count, column definitions, EOF,
 * one text row per row (NULL as 0xFB), EOF
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_query_response_text_resultset.html).
 */
final class ResultSetWriter {

    /** utf8mb4_general_ci for text, binary for numbers, as servers describe them. */
    private static final int UTF8MB4 = 45;
    private static final int BINARY = 63;

    private final Channel channel;
    private int sequenceId;

    ResultSetWriter(Channel channel, int firstSequenceId) {
        this.channel = channel;
        this.sequenceId = firstSequenceId;
    }

    void table(Table table) {
        write(new ColumnCount(table.columns().size(), ColumnCount.METADATA_FULL, 0));
        for (Table.Column column : table.columns()) {
            boolean text = column.type() == Table.Type.TEXT;
            int type = switch (column.type()) {
                case TEXT -> ColumnTypes.VAR_STRING;
                case INTEGER -> ColumnTypes.LONGLONG;
                case DECIMAL -> ColumnTypes.NEWDECIMAL;
            };
            write(new ColumnDefinition41("def", "sluice", table.name(), table.name(), column.name(), column.name(), null,
                    text ? UTF8MB4 : BINARY, text ? 1024 : 21, type, text ? 0 : ColumnDefinition41.BINARY_FLAG,
                    column.type() == Table.Type.DECIMAL ? 3 : 0, null));
        }
        write(new EofPacket(0, ServerStatus.AUTOCOMMIT));
        for (List<Object> row : table.rows()) {
            ByteBuf out = start();
            for (Object value : row) {
                String text = Table.text(value);
                if (text == null) {
                    out.writeByte(0xFB);
                } else {
                    Wire.writeBytesLenenc(out, text.getBytes(StandardCharsets.UTF_8));
                }
            }
            finish(out);
        }
        write(new EofPacket(0, ServerStatus.AUTOCOMMIT));
        channel.flush();
    }

    void ok(long affectedRows, String info) {
        write(new OkPacket(OkPacket.HEADER, affectedRows, 0, ServerStatus.AUTOCOMMIT, 0, info == null ? "" : info, null));
        channel.flush();
    }

    void error(int code, String sqlState, String message) {
        write(new ErrPacket(code, sqlState, message));
        channel.flush();
    }

    private void write(ServerPacket packet) {
        ByteBuf out = start();
        packet.encode(out);
        finish(out);
    }

    private ByteBuf start() {
        ByteBuf out = channel.alloc().buffer(64);
        out.writeZero(4);
        return out;
    }

    private void finish(ByteBuf out) {
        out.setMediumLE(0, out.readableBytes() - 4);
        out.setByte(3, sequenceId++ & 0xFF);
        channel.write(out, channel.voidPromise());
    }
}
