package dev.sluice.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * TLS towards backends.
 *
 * @param enabled switch backend connections to TLS
 * @param verify  check the backend's certificate and host name
 * @param ca      PEM CA certificates to verify against; without it, the JDK's trust store
 */
public record BackendTlsConfig(boolean enabled, boolean verify, Optional<Path> ca) {

    public BackendTlsConfig {
        Objects.requireNonNull(ca, "ca");
        if (verify && !enabled) {
            throw new IllegalArgumentException("verify: true needs enabled: true");
        }
    }

    public static BackendTlsConfig defaults() {
        return new BackendTlsConfig(false, false, Optional.empty());
    }
}
