package dev.sluice.config;

import java.util.Objects;

/** TLS on both sides of the proxy; each side is configured on its own. */
public record TlsConfig(ClientTlsConfig client, BackendTlsConfig backend) {

    public TlsConfig {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(backend, "backend");
    }

    public static TlsConfig defaults() {
        return new TlsConfig(ClientTlsConfig.defaults(), BackendTlsConfig.defaults());
    }
}
