package dev.sluice.protocol.auth;

import java.security.interfaces.RSAPublicKey;

/**
 * How the client side may send a password when caching_sha2_password asks for full
 * authentication: in clear over TLS, else RSA-encrypted with the server's public key, either
 * configured or (when allowed) requested from the server. Requesting it trusts whoever answers,
 * which is why Connector/J's allowPublicKeyRetrieval is off by default.
 *
 * @param secure                   the connection is TLS
 * @param serverPublicKey          the server's RSA public key, or null when not configured
 * @param allowPublicKeyRetrieval  may ask the server for its public key
 */
public record ClientAuthOptions(boolean secure, RSAPublicKey serverPublicKey, boolean allowPublicKeyRetrieval) {

    public static ClientAuthOptions tls() {
        return new ClientAuthOptions(true, null, false);
    }

    public static ClientAuthOptions plaintext(boolean allowPublicKeyRetrieval) {
        return new ClientAuthOptions(false, null, allowPublicKeyRetrieval);
    }

    public static ClientAuthOptions plaintext(RSAPublicKey serverPublicKey) {
        return new ClientAuthOptions(false, serverPublicKey, false);
    }
}
