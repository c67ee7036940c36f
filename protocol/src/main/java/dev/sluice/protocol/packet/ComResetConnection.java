package dev.sluice.protocol.packet;

import dev.sluice.protocol.Commands;
import io.netty.buffer.ByteBuf;

/** COM_RESET_CONNECTION (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_reset_connection.html): resets session state without re-authenticating; answered by an OK. */
public record ComResetConnection() implements ClientCommand {

    public static ComResetConnection decode(ByteBuf payload) {
        Fields.header(payload, Commands.COM_RESET_CONNECTION, "ComResetConnection");
        Fields.end(payload, "ComResetConnection");
        return new ComResetConnection();
    }

    @Override
    public int command() {
        return Commands.COM_RESET_CONNECTION;
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(Commands.COM_RESET_CONNECTION);
    }
}
