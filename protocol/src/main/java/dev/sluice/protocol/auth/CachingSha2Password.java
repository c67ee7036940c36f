package dev.sluice.protocol.auth;

/**
 * caching_sha2_password: {@code SHA256(password) XOR SHA256(SHA256(SHA256(password)) + seed)}
 * for fast authentication; full authentication then sends the password in clear over TLS, or
 * {@code RSA-OAEP((password + NUL) XOR seed)} without it
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_caching_sha2_authentication_exchanges.html).
 *
 * <p>The exchange after the scramble, in AuthMoreData packets (header 0x01) from the server:
 * {@code 03} fast auth succeeded, OK follows; {@code 04} perform full authentication: the client
 * sends the password + NUL over TLS, or else either {@code 02} to request the public key (the
 * server answers with its PEM) or the RSA-encrypted password straight away.
 */
public final class CachingSha2Password implements AuthPlugin {

    public static final String NAME = "caching_sha2_password";

    static final byte REQUEST_PUBLIC_KEY = 0x02;
    static final byte FAST_AUTH_SUCCESS = 0x03;
    static final byte PERFORM_FULL_AUTHENTICATION = 0x04;

    /** The scramble a client sends for {@code password} and the server's 20-byte seed; empty for an empty password. */
    public static byte[] scramble(byte[] password, byte[] seed) {
        if (password.length == 0) {
            return new byte[0];
        }
        byte[] passwordHash = Digests.sha256(password);
        return Digests.xor(passwordHash, Digests.sha256(Digests.sha256(passwordHash), seed));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ClientAuth startClient(Credential credential, byte[] pluginData, ClientAuthOptions options) {
        if (!(credential instanceof Credential.Password password)) {
            throw new IllegalArgumentException(NAME + " needs the password itself (given: " + credential + ")");
        }
        return new CachingSha2Client(password.utf8(), AuthSeed.fromPluginData(pluginData), options);
    }

    @Override
    public ServerAuth startServer(ServerLogin login) {
        return new CachingSha2Server(login);
    }
}
