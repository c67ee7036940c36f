package dev.sluice.protocol.packet;

import dev.sluice.protocol.Commands;
import io.netty.buffer.ByteBuf;

/** COM_QUIT (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_quit.html): the server closes the connection without answering. */
public record ComQuit() implements ClientCommand {

    public static ComQuit decode(ByteBuf payload) {
        Fields.header(payload, Commands.COM_QUIT, "ComQuit");
        Fields.end(payload, "ComQuit");
        return new ComQuit();
    }

    @Override
    public int command() {
        return Commands.COM_QUIT;
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(Commands.COM_QUIT);
    }
}
