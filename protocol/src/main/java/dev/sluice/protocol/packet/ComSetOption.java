package dev.sluice.protocol.packet;

import dev.sluice.protocol.Commands;
import io.netty.buffer.ByteBuf;

/**
 * COM_SET_OPTION (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_set_option.html):
 * turns multi-statements on (0) or off (1) for the session; answered by an EOF (not an OK).
 */
public record ComSetOption(int option) implements ClientCommand {

    public static final int MULTI_STATEMENTS_ON = 0;
    public static final int MULTI_STATEMENTS_OFF = 1;

    public static ComSetOption decode(ByteBuf payload) {
        Fields.header(payload, Commands.COM_SET_OPTION, "ComSetOption");
        int option = Fields.int2(payload, "ComSetOption.option_operation");
        Fields.end(payload, "ComSetOption");
        return new ComSetOption(option);
    }

    @Override
    public int command() {
        return Commands.COM_SET_OPTION;
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(Commands.COM_SET_OPTION);
        out.writeShortLE(option);
    }
}
