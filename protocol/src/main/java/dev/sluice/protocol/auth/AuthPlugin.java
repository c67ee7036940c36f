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
     * @param password   the password as UTF-8 bytes (empty for none)
     * @param pluginData the server's auth-plugin-data from HandshakeV10 or AuthSwitchRequest
     */
    ClientAuth startClient(byte[] password, byte[] pluginData, ClientAuthOptions options);

    /** Starts the server side for one login. */
    ServerAuth startServer(ServerLogin login);
}
