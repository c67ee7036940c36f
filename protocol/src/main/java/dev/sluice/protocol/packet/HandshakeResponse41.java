package dev.sluice.protocol.packet;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.Wire;
import io.netty.buffer.ByteBuf;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Protocol::HandshakeResponse41
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase_packets_protocol_handshake_response.html).
 * The client's own {@link #capabilities} decide the layout: how the auth response is length-prefixed,
 * and whether the database, plugin name and connection attributes follow.
 *
 * @param capabilities the client flags, with MariaDB's extended capabilities from the filler when
 *        CLIENT_MYSQL is clear
 * @param database null without CLIENT_CONNECT_WITH_DB
 * @param authPluginName null without CLIENT_PLUGIN_AUTH
 * @param connectAttributes in the client's order; empty without CLIENT_CONNECT_ATTRS
 */
public record HandshakeResponse41(
        long capabilities,
        long maxPacketSize,
        int characterSet,
        String username,
        byte[] authResponse,
        String database,
        String authPluginName,
        Map<String, String> connectAttributes) implements ClientPacket {

    private static final String NAME = "HandshakeResponse41";

    public HandshakeResponse41 {
        connectAttributes = Collections.unmodifiableMap(new LinkedHashMap<>(connectAttributes));
    }

    public static HandshakeResponse41 decode(ByteBuf payload) {
        if (payload.readableBytes() == SslRequest.LENGTH) {
            throw new ProtocolException("HandshakeResponse41: payload length 32 is an SSLRequest "
                    + "(expected: > 32 bytes; decode it with SslRequest)");
        }
        SslRequest prefix = SslRequest.readPrefix(payload, NAME);
        long caps = prefix.capabilities();
        String username = Fields.stringNul(payload, "HandshakeResponse41.username");
        byte[] authResponse = AuthResponses.read(payload, caps, true, "HandshakeResponse41.auth_response");
        String database = null;
        if (Capabilities.has(caps, Capabilities.CLIENT_CONNECT_WITH_DB)) {
            database = Fields.stringNul(payload, "HandshakeResponse41.database");
        }
        String pluginName = null;
        if (Capabilities.has(caps, Capabilities.CLIENT_PLUGIN_AUTH)) {
            pluginName = Fields.stringNul(payload, "HandshakeResponse41.client_plugin_name");
        }
        Map<String, String> attributes = Map.of();
        if (Capabilities.has(caps, Capabilities.CLIENT_CONNECT_ATTRS)) {
            attributes = ConnectAttributes.read(payload, "HandshakeResponse41.connection_attributes");
        }
        Fields.end(payload, NAME);
        return new HandshakeResponse41(caps, prefix.maxPacketSize(), prefix.characterSet(), username, authResponse,
                database, pluginName, attributes);
    }

    @Override
    public void encode(ByteBuf out) {
        SslRequest.writePrefix(out, capabilities, maxPacketSize, characterSet);
        Wire.writeStringNul(out, username);
        AuthResponses.write(out, authResponse, capabilities, true, "HandshakeResponse41.auth_response");
        if (Capabilities.has(capabilities, Capabilities.CLIENT_CONNECT_WITH_DB)) {
            Wire.writeStringNul(out, database);
        }
        if (Capabilities.has(capabilities, Capabilities.CLIENT_PLUGIN_AUTH)) {
            Wire.writeStringNul(out, authPluginName);
        }
        if (Capabilities.has(capabilities, Capabilities.CLIENT_CONNECT_ATTRS)) {
            ConnectAttributes.write(out, connectAttributes);
        }
    }
}
