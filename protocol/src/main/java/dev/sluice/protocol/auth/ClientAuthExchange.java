package dev.sluice.protocol.auth;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.packet.AuthMoreData;
import dev.sluice.protocol.packet.AuthSwitchRequest;
import dev.sluice.protocol.packet.ErrPacket;
import dev.sluice.protocol.packet.OkPacket;
import io.netty.buffer.ByteBuf;
import java.util.function.Function;

/**
 * The client side of a whole login after the greeting: the auth response for
 * HandshakeResponse41, then every server packet until OK or ERR, following AuthSwitchRequest to
 * another plugin and AuthMoreData through the plugin's exchange
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase.html).
 */
public final class ClientAuthExchange {

    private final AuthPlugins plugins;
    private final Credential credential;
    private final ClientAuthOptions options;
    private ClientAuth active;
    private boolean ended;

    /** @param password the password as UTF-8 bytes (empty for none) */
    public ClientAuthExchange(AuthPlugins plugins, byte[] password, ClientAuthOptions options) {
        this(plugins, Credential.password(password), options);
    }

    /**
     * @param credential the password, or {@code SHA1(password)} when only that is known (it logs in
     *                   with mysql_native_password only; a server that asks for another plugin ends
     *                   the login in {@link ClientStep.Abort})
     */
    public ClientAuthExchange(AuthPlugins plugins, Credential credential, ClientAuthOptions options) {
        this.plugins = plugins;
        this.credential = credential;
        this.options = options;
    }

    /** The plugin name and auth response to put in HandshakeResponse41. */
    public record InitialResponse(String pluginName, byte[] authResponse) {
        public InitialResponse {
            authResponse = authResponse.clone();
        }

        @Override
        public byte[] authResponse() {
            return authResponse.clone();
        }
    }

    /**
     * Starts from the greeting's plugin and auth-plugin-data. A plugin this side does not know, or
     * cannot use with its credential, is answered with mysql_native_password, as MySQL's clients
     * answer a plugin they lack; the server then switches, or accepts.
     */
    public InitialResponse start(String serverPlugin, byte[] pluginData) {
        if (active != null) {
            throw new IllegalStateException("start was called twice");
        }
        AuthPlugin plugin = plugins.find(serverPlugin).filter(p -> p.canLogIn(credential))
                .orElseGet(() -> plugins.require(MysqlNativePassword.NAME));
        active = plugin.startClient(credential, pluginData, options);
        return new InitialResponse(active.pluginName(), active.firstResponse());
    }

    /**
     * One server packet: OK ends in {@link ClientStep.Authenticated}, ERR in
     * {@link ClientStep.Rejected}; AuthSwitchRequest and AuthMoreData give what to send next.
     *
     * @throws ProtocolException for anything else, or for a packet after the login ended
     */
    public ClientStep onServerPacket(byte[] payload) {
        if (active == null) {
            throw new IllegalStateException("onServerPacket before start");
        }
        if (ended) {
            throw new ProtocolException("server packet of " + payload.length + " bytes after the login ended in phase AUTH");
        }
        if (payload.length == 0) {
            throw new ProtocolException("empty packet (expected: OK, ERR, AuthSwitchRequest or AuthMoreData) in phase AUTH");
        }
        int header = payload[0] & 0xFF;
        return switch (header) {
            case OkPacket.HEADER -> {
                ended = true;
                yield new ClientStep.Authenticated(payload);
            }
            case ErrPacket.HEADER -> {
                ended = true;
                // Every server that speaks plugin auth sends the SQL state; MySQL's default for none is HY000.
                ErrPacket err = decode(payload, buf -> ErrPacket.decode(buf, Capabilities.CLIENT_PROTOCOL_41));
                yield new ClientStep.Rejected(err.errorCode(), err.sqlState() == null ? "HY000" : err.sqlState(),
                        err.errorMessage());
            }
            case AuthSwitchRequest.HEADER -> switchPlugin(decode(payload, AuthSwitchRequest::decode));
            case AuthMoreData.HEADER -> active.onMoreData(decode(payload, AuthMoreData::decode));
            default -> throw new ProtocolException(String.format("packet header 0x%02x (expected: 0x00 OK, 0xff ERR, "
                    + "0xfe AuthSwitchRequest or 0x01 AuthMoreData) in phase AUTH", header));
        };
    }

    /** The plugin in use (after any switch). */
    public String pluginName() {
        return active == null ? null : active.pluginName();
    }

    private ClientStep switchPlugin(AuthSwitchRequest request) {
        var plugin = plugins.find(request.pluginName());
        if (plugin.isEmpty()) {
            ended = true;
            return new ClientStep.Abort("the server asks for auth plugin '" + request.pluginName()
                    + "', which is not supported (supported: " + String.join(", ", plugins.names()) + ")");
        }
        if (!plugin.get().canLogIn(credential)) {
            ended = true;
            return new ClientStep.Abort("the server asks for auth plugin '" + request.pluginName()
                    + "', which needs the password itself; only its mysql_native_password hash is known here");
        }
        active = plugin.get().startClient(credential, request.pluginData(), options);
        return new ClientStep.Reply(active.firstResponse());
    }

    private static <T> T decode(byte[] payload, Function<ByteBuf, T> decoder) {
        try {
            return Payloads.decode(payload, decoder);
        } catch (ProtocolException e) {
            throw e.in("phase AUTH");
        }
    }
}
