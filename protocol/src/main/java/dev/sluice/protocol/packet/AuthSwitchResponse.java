package dev.sluice.protocol.packet;

import io.netty.buffer.ByteBuf;

/**
 * Protocol::AuthSwitchResponse
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase_packets_protocol_auth_switch_response.html):
 * the client's auth data for the plugin the server switched to, the whole payload with no header
 * (also the shape of every later client packet of a multi-round plugin exchange).
 */
public record AuthSwitchResponse(byte[] data) implements ClientPacket {

    public static AuthSwitchResponse decode(ByteBuf payload) {
        return new AuthSwitchResponse(Fields.bytesEof(payload));
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeBytes(data);
    }
}
