package dev.sluice.protocol.auth;

import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.packet.AuthMoreData;
import java.util.List;

/**
 * mysql_native_password: {@code SHA1(password) XOR SHA1(seed + SHA1(SHA1(password)))}, or an
 * empty response for an empty password
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase_authentication_methods_native_password_authentication.html).
 * One round: the server answers the scramble with OK or ERR.
 */
public final class MysqlNativePassword implements AuthPlugin {

    public static final String NAME = "mysql_native_password";

    /** The scramble a client sends for {@code password} and the server's 20-byte seed. */
    public static byte[] scramble(byte[] password, byte[] seed) {
        if (password.length == 0) {
            return new byte[0];
        }
        byte[] passwordHash = Digests.sha1(password);
        return Digests.xor(passwordHash, Digests.sha1(seed, Digests.sha1(passwordHash)));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ClientAuth startClient(byte[] password, byte[] pluginData, ClientAuthOptions options) {
        byte[] response = scramble(password, AuthSeed.fromPluginData(pluginData));
        return new ClientAuth() {
            @Override
            public String pluginName() {
                return NAME;
            }

            @Override
            public byte[] firstResponse() {
                return response.clone();
            }

            @Override
            public ClientStep onMoreData(AuthMoreData moreData) {
                throw new ProtocolException(NAME + ": AuthMoreData with " + moreData.data().length
                        + " bytes of data (expected: OK or ERR after the scramble) in phase AUTH");
            }
        };
    }

    @Override
    public ServerAuth startServer(ServerLogin login) {
        return new Server(login);
    }

    private static final class Server implements ServerAuth {

        private final ServerLogin login;
        private boolean done;

        Server(ServerLogin login) {
            this.login = login;
        }

        @Override
        public String pluginName() {
            return NAME;
        }

        @Override
        public ServerStep onClientData(byte[] payload) {
            if (done) {
                throw new ProtocolException(NAME + ": client packet of " + payload.length
                        + " bytes after the exchange ended in phase AUTH");
            }
            done = true;
            if (Digests.isEmptyResponse(payload)) {
                boolean emptyPassword = login.knownUser() && login.password().length == 0;
                return emptyPassword ? new ServerStep.Accept(List.of()) : deny(false);
            }
            byte[] expected = scramble(login.passwordOrStandIn(), login.seed());
            boolean match = Digests.constantTimeEquals(expected, payload);
            return match && login.knownUser() ? new ServerStep.Accept(List.of()) : deny(true);
        }

        private ServerStep deny(boolean usingPassword) {
            return ServerStep.Reject.accessDenied(login.user(), login.host(), usingPassword);
        }
    }
}
