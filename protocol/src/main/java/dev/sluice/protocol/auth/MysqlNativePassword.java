package dev.sluice.protocol.auth;

import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.packet.AuthMoreData;
import java.util.List;

/**
 * mysql_native_password: {@code SHA1(password) XOR SHA1(seed + SHA1(SHA1(password)))}, or an
 * empty response for an empty password
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase_authentication_methods_native_password_authentication.html).
 * One round: the server answers the scramble with OK or ERR. The server side needs only
 * {@code SHA1(SHA1(password))}: XOR with {@code SHA1(seed + it)} gives back the client's
 * {@code SHA1(password)}, whose SHA-1 must be it; that recovered stage 1 then logs in elsewhere
 * with this plugin, which is how a proxy that keeps only the hash logs into its backends.
 */
public final class MysqlNativePassword implements AuthPlugin {

    public static final String NAME = "mysql_native_password";

    /** The scramble a client sends for {@code password} and the server's 20-byte seed. */
    public static byte[] scramble(byte[] password, byte[] seed) {
        if (password.length == 0) {
            return new byte[0];
        }
        return scrambleStage1(Digests.sha1(password), seed);
    }

    /** The scramble from hash stage 1, {@code SHA1(password)}, alone. */
    public static byte[] scrambleStage1(byte[] stage1, byte[] seed) {
        return Digests.xor(stage1, Digests.sha1(seed, Digests.sha1(stage1)));
    }

    /**
     * The {@code SHA1(password)} a client put into {@code scramble}, given hash stage 2; it is the
     * client's real stage 1 exactly when its SHA-1 is {@code stage2}.
     */
    public static byte[] recoverStage1(byte[] scramble, byte[] seed, byte[] stage2) {
        return Digests.xor(scramble, Digests.sha1(seed, stage2));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean canLogIn(Credential credential) {
        return !(credential instanceof Credential.NativeStage2);
    }

    @Override
    public ClientAuth startClient(Credential credential, byte[] pluginData, ClientAuthOptions options) {
        byte[] seed = AuthSeed.fromPluginData(pluginData);
        byte[] response = switch (credential) {
            case Credential.Password password -> scramble(password.utf8(), seed);
            case Credential.NativeStage1 stage1 -> scrambleStage1(stage1.sha1(), seed);
            case Credential.NativeStage2 stage2 -> throw new IllegalArgumentException(NAME
                    + " cannot log in with SHA1(SHA1(password)) alone: it needs SHA1(password) or the password");
        };
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
            Credential account = login.credential();
            if (Digests.isEmptyResponse(payload)) {
                boolean emptyPassword = account instanceof Credential.Password password && password.empty();
                return emptyPassword ? new ServerStep.Accept(List.of(), account) : deny(false);
            }
            byte[] stage2 = account == null || (account instanceof Credential.Password password && password.empty())
                    ? Digests.sha1(Digests.sha1(Digests.UNKNOWN_USER_PASSWORD)) : account.nativeStage2();
            // A scramble of another length cannot match; hashing it all the same keeps the time alike.
            byte[] stage1 = recoverStage1(payload.length == 20 ? payload : new byte[20], login.seed(), stage2);
            boolean match = Digests.constantTimeEquals(Digests.sha1(stage1), stage2) && payload.length == 20;
            if (!match || account == null) {
                return deny(true);
            }
            // The backends get the password when the proxy has it (every plugin can use it), else stage 1.
            return new ServerStep.Accept(List.of(), account.isPassword() ? account : new Credential.NativeStage1(stage1));
        }

        private ServerStep deny(boolean usingPassword) {
            return ServerStep.Reject.accessDenied(login.user(), login.host(), usingPassword);
        }
    }
}
