package dev.sluice.protocol.auth;

/**
 * One authentication method, both its sides. Implementations are stateless; each login gets
 * its own {@link ClientAuth} or {@link ServerAuth}, a small state machine fed one packet payload
 * at a time, so a Netty handler can drive it without blocking. Those state machines belong to one
 * connection and are not thread-safe; the plugins themselves are.
 */
public interface AuthPlugin {

    /** The name on the wire, e.g. {@code caching_sha2_password}. */
    String name();

    /**
     * Starts the client side for one login.
     *
     * @param credential what the client knows of the password; only one that {@link #canLogIn}
     * @param pluginData the server's auth-plugin-data from HandshakeV10 or AuthSwitchRequest
     * @throws IllegalArgumentException for a credential this plugin cannot log in with
     */
    ClientAuth startClient(Credential credential, byte[] pluginData, ClientAuthOptions options);

    /** {@link #startClient(Credential, byte[], ClientAuthOptions)} with the password itself (UTF-8, empty for none). */
    default ClientAuth startClient(byte[] password, byte[] pluginData, ClientAuthOptions options) {
        return startClient(Credential.password(password), pluginData, options);
    }

    /** Whether the client side can log in knowing only {@code credential}; the password always can. */
    default boolean canLogIn(Credential credential) {
        return credential.isPassword();
    }

    /** Starts the server side for one login. */
    ServerAuth startServer(ServerLogin login);
}
