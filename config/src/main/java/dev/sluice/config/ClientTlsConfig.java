package dev.sluice.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * TLS towards clients.
 *
 * @param enabled  offer TLS in the server greeting
 * @param cert     PEM certificate chain; with {@code key}, or neither
 * @param key      PEM private key for {@code cert}
 * @param required refuse clients that do not switch to TLS
 */
public record ClientTlsConfig(boolean enabled, Optional<Path> cert, Optional<Path> key, boolean required) {

    public ClientTlsConfig {
        Objects.requireNonNull(cert, "cert");
        Objects.requireNonNull(key, "key");
        if (cert.isPresent() != key.isPresent()) {
            throw new IllegalArgumentException((cert.isPresent() ? "cert is set without key" : "key is set without cert")
                    + " (expected: both cert and key, or neither for a self-signed certificate)");
        }
        if (required && !enabled) {
            throw new IllegalArgumentException("required: true needs enabled: true");
        }
    }

    public static ClientTlsConfig defaults() {
        return new ClientTlsConfig(false, Optional.empty(), Optional.empty(), false);
    }

    /** TLS is on but no certificate was given: the proxy makes a self-signed one at start. */
    public boolean selfSigned() {
        return enabled && cert.isEmpty();
    }
}
