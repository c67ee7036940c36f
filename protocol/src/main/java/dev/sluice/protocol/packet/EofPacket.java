package dev.sluice.protocol.packet;

import io.netty.buffer.ByteBuf;

/**
 * EOF_Packet (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_basic_eof_packet.html)
 * in the protocol 4.1 layout: 0xFE, warnings, status flags. Not sent when CLIENT_DEPRECATE_EOF is
 * negotiated (an {@link OkPacket} with header 0xFE takes its place).
 */
public record EofPacket(int warnings, int statusFlags) implements ServerPacket {

    public static final int HEADER = 0xFE;
    /** The docs' rule: header 0xFE and a payload shorter than this is an EOF (or a 0xFE OK). */
    public static final int MAX_LENGTH = 8;

    /**
     * True when {@code payload} (not consumed) is shaped like an EOF. A text row whose first column
     * is 16 MiB or longer also starts with 0xFE (its 8-byte length prefix) but is at least 9 bytes
     * long, so it never matches. Under CLIENT_DEPRECATE_EOF the 0xFE OK that ends a result set can
     * be longer (info, session state): tell it from a row by the response state, not by this.
     */
    public static boolean matches(ByteBuf payload) {
        return payload.isReadable() && payload.readableBytes() <= MAX_LENGTH
                && payload.getUnsignedByte(payload.readerIndex()) == HEADER;
    }

    public static EofPacket decode(ByteBuf payload) {
        Fields.header(payload, HEADER, "EofPacket");
        int warnings = Fields.int2(payload, "EofPacket.warnings");
        int status = Fields.int2(payload, "EofPacket.status_flags");
        Fields.end(payload, "EofPacket");
        return new EofPacket(warnings, status);
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(HEADER);
        out.writeShortLE(warnings);
        out.writeShortLE(statusFlags);
    }
}
