package dev.sluice.protocol.packet;

import dev.sluice.protocol.Commands;
import io.netty.buffer.ByteBuf;

/** COM_STATISTICS (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_statistics.html): answered by a human-readable string, not an OK. */
public record ComStatistics() implements ClientCommand {

    public static ComStatistics decode(ByteBuf payload) {
        Fields.header(payload, Commands.COM_STATISTICS, "ComStatistics");
        Fields.end(payload, "ComStatistics");
        return new ComStatistics();
    }

    @Override
    public int command() {
        return Commands.COM_STATISTICS;
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(Commands.COM_STATISTICS);
    }
}
