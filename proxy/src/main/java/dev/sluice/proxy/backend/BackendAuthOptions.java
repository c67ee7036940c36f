package dev.sluice.proxy.backend;

import dev.sluice.config.BackendTlsConfig;
import dev.sluice.protocol.auth.ClientAuthOptions;
import dev.sluice.protocol.auth.PemKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.interfaces.RSAPublicKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How backend logins may send a password that caching_sha2_password asks for in full: in clear
 * only inside verified TLS (an unverified peer may be anyone), else encrypted with the configured
 * server key, else, only when the config allows it, with a key the server sends, which trusts
 * whoever answers at the backend's address.
 */
public final class BackendAuthOptions {

    private static final Logger log = LoggerFactory.getLogger(BackendAuthOptions.class);

    private BackendAuthOptions() {
    }

    public static ClientAuthOptions from(BackendTlsConfig tls) {
        RSAPublicKey key = tls.serverPublicKey().map(BackendAuthOptions::read).orElse(null);
        if (tls.allowPublicKeyRetrieval() && !tls.verified() && key == null) {
            log.warn("tls.backend.allow_public_key_retrieval is on: a backend login that must send its full password"
                    + " asks the server for the key to encrypt it with, and whoever answers at the backend's address can"
                    + " read it; set tls.backend.server_public_key, or verified TLS (enabled and verify), instead");
        }
        return new ClientAuthOptions(tls.verified(), key, tls.allowPublicKeyRetrieval());
    }

    private static RSAPublicKey read(Path file) {
        try {
            return PemKeys.publicKeyFromPem(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("tls.backend.server_public_key: cannot read " + file + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("tls.backend.server_public_key: " + file + " holds no RSA public key in PEM ("
                    + e.getMessage() + ")", e);
        }
    }
}
