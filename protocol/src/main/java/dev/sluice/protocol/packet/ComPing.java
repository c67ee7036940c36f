package dev.sluice.protocol.packet;

import dev.sluice.protocol.Commands;
import io.netty.buffer.ByteBuf;

/** COM_PING (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_ping.html): answered by an OK. */
public record ComPing() implements ClientCommand {

    public static ComPing decode(ByteBuf payload) {
        Fields.header(payload, Commands.COM_PING, "ComPing");
        Fields.end(payload, "ComPing");
        return new ComPing();
    }

    @Override
    public int command() {
        return Commands.COM_PING;
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(Commands.COM_PING);
    }
}
