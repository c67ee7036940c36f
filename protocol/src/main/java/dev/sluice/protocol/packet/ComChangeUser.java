package dev.sluice.protocol.packet;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.Wire;
import io.netty.buffer.ByteBuf;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * COM_CHANGE_USER (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_change_user.html).
 * The auth response has a 1-byte length with CLIENT_SECURE_CONNECTION (never lenenc here), else a
 * NUL terminator. Everything after the database is optional ("if more data"), as servers read it:
 * the character set, then the plugin name with CLIENT_PLUGIN_AUTH, then the connection attributes
 * with CLIENT_CONNECT_ATTRS, each only if bytes remain.
 *
 * @param characterSet 0 when the packet ends after the database
 * @param authPluginName null when not sent
 * @param connectAttributes null when not sent
 * @param capabilities the client's capabilities from its handshake response, which shape the packet
 */
public record ComChangeUser(
        String user,
        byte[] authResponse,
        String database,
        int characterSet,
        String authPluginName,
        Map<String, String> connectAttributes,
        long capabilities) implements ClientCommand {

    public ComChangeUser {
        connectAttributes = connectAttributes == null ? null
                : Collections.unmodifiableMap(new LinkedHashMap<>(connectAttributes));
    }

    public static ComChangeUser decode(ByteBuf payload, long capabilities) {
        Fields.header(payload, Commands.COM_CHANGE_USER, "ComChangeUser");
        String user = Fields.stringNul(payload, "ComChangeUser.user");
        byte[] authResponse = AuthResponses.read(payload, capabilities, false, "ComChangeUser.auth_plugin_data");
        String database = Fields.stringNul(payload, "ComChangeUser.database");
        int characterSet = 0;
        String pluginName = null;
        Map<String, String> attributes = null;
        if (payload.isReadable()) {
            characterSet = Fields.int2(payload, "ComChangeUser.character_set");
            if (Capabilities.has(capabilities, Capabilities.CLIENT_PLUGIN_AUTH) && payload.isReadable()) {
                pluginName = Fields.stringNul(payload, "ComChangeUser.auth_plugin_name");
            }
            if (Capabilities.has(capabilities, Capabilities.CLIENT_CONNECT_ATTRS) && payload.isReadable()) {
                attributes = ConnectAttributes.read(payload, "ComChangeUser.connection_attributes");
            }
        }
        Fields.end(payload, "ComChangeUser");
        return new ComChangeUser(user, authResponse, database, characterSet, pluginName, attributes, capabilities);
    }

    @Override
    public int command() {
        return Commands.COM_CHANGE_USER;
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(Commands.COM_CHANGE_USER);
        Wire.writeStringNul(out, user);
        AuthResponses.write(out, authResponse, capabilities, false, "ComChangeUser.auth_plugin_data");
        Wire.writeStringNul(out, database);
        if (characterSet != 0 || authPluginName != null || connectAttributes != null) {
            out.writeShortLE(characterSet);
        }
        if (authPluginName != null) {
            Wire.writeStringNul(out, authPluginName);
        }
        if (connectAttributes != null) {
            ConnectAttributes.write(out, connectAttributes);
        }
    }
}
