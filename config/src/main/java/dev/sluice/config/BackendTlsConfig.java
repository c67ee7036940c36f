package dev.sluice.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * TLS towards backends, and how a backend login may send a password that MySQL 8's
 * caching_sha2_password asks for in full: only over verified TLS, or RSA-encrypted with a key the
 * config names, unless {@code allowPublicKeyRetrieval} lets the proxy ask the server for its key,
 * which trusts whoever answers at the backend's address.
 *
 * @param enabled                 switch backend connections to TLS
 * @param verify                  check the backend's certificate and host name
 * @param ca                      PEM CA certificates to verify against; without it, the JDK's trust store
 * @param serverPublicKey         PEM RSA public key of the backends (their caching_sha2_password key)
 * @param allowPublicKeyRetrieval may ask a backend for its public key over an unverified connection
 */
public record BackendTlsConfig(boolean enabled, boolean verify, Optional<Path> ca, Optional<Path> serverPublicKey,
                               boolean allowPublicKeyRetrieval) {

    public BackendTlsConfig {
        Objects.requireNonNull(ca, "ca");
        Objects.requireNonNull(serverPublicKey, "serverPublicKey");
        if (verify && !enabled) {
            throw new IllegalArgumentException("verify: true needs enabled: true");
        }
    }

    /** Without a server public key, never asking for one. */
    public BackendTlsConfig(boolean enabled, boolean verify, Optional<Path> ca) {
        this(enabled, verify, ca, Optional.empty(), false);
    }

    public static BackendTlsConfig defaults() {
        return new BackendTlsConfig(false, false, Optional.empty());
    }

    /** The connection is TLS whose certificate was checked: a password may go in clear inside it. */
    public boolean verified() {
        return enabled && verify;
    }
}
