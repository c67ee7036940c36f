package dev.sluice.protocol.packet;

import dev.sluice.protocol.Wire;
import io.netty.buffer.ByteBuf;

/**
 * Protocol::AuthSwitchRequest
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase_packets_protocol_auth_switch_request.html):
 * 0xFE, the plugin name, and the plugin's data up to the end of the packet, kept exactly as sent.
 * mysql_native_password and caching_sha2_password append a NUL to their 20-byte scramble;
 * MariaDB's client_ed25519 sends a bare 32-byte nonce, whose last byte may itself be 0.
 */
public record AuthSwitchRequest(String pluginName, byte[] pluginData) implements ServerPacket {

    public static final int HEADER = 0xFE;

    public static AuthSwitchRequest decode(ByteBuf payload) {
        Fields.header(payload, HEADER, "AuthSwitchRequest");
        String pluginName = Fields.stringNul(payload, "AuthSwitchRequest.plugin_name");
        return new AuthSwitchRequest(pluginName, Fields.bytesEof(payload));
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(HEADER);
        Wire.writeStringNul(out, pluginName);
        out.writeBytes(pluginData);
    }

    /**
     * The scramble for the plugins that NUL-terminate it (mysql_native_password,
     * caching_sha2_password): the plugin data without one trailing NUL. Other plugins read
     * {@link #pluginData} as it is.
     */
    public byte[] scrambleWithoutTrailingNul() {
        int length = pluginData.length;
        if (length > 0 && pluginData[length - 1] == 0) {
            length--;
        }
        byte[] scramble = new byte[length];
        System.arraycopy(pluginData, 0, scramble, 0, length);
        return scramble;
    }
}
