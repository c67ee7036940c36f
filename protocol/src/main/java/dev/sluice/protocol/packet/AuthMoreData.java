package dev.sluice.protocol.packet;

import io.netty.buffer.ByteBuf;

/**
 * Protocol::AuthMoreData
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase_packets_protocol_auth_more_data.html):
 * 0x01 and plugin data up to the end of the packet (caching_sha2_password's 0x03 fast-auth success,
 * 0x04 full-auth request, or a PEM public key).
 */
public record AuthMoreData(byte[] data) implements ServerPacket {

    public static final int HEADER = 0x01;

    public static AuthMoreData decode(ByteBuf payload) {
        Fields.header(payload, HEADER, "AuthMoreData");
        return new AuthMoreData(Fields.bytesEof(payload));
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(HEADER);
        out.writeBytes(data);
    }
}
