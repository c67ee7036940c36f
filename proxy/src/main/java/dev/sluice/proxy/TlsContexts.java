package dev.sluice.proxy;

import dev.sluice.config.BackendTlsConfig;
import dev.sluice.config.ClientTlsConfig;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.handler.ssl.util.SelfSignedCertificate;
import javax.net.ssl.SSLException;
import java.security.cert.CertificateException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Builds the TLS contexts the config asks for. */
final class TlsContexts {

    private static final Logger log = LoggerFactory.getLogger(TlsContexts.class);

    private TlsContexts() {
    }

    /** TLS towards clients, or null when off; a self-signed certificate when none is configured. */
    static SslContext forClients(ClientTlsConfig config) {
        if (!config.enabled()) {
            return null;
        }
        try {
            if (config.cert().isPresent() && config.key().isPresent()) {
                return SslContextBuilder.forServer(config.cert().get().toFile(), config.key().get().toFile()).build();
            }
            SelfSignedCertificate certificate = new SelfSignedCertificate("sluice");
            log.warn("tls.client: no cert and key configured; using a self-signed certificate generated at start. "
                    + "Clients that verify the server certificate will refuse it: configure tls.client.cert and key.");
            return SslContextBuilder.forServer(certificate.certificate(), certificate.privateKey()).build();
        } catch (SSLException | CertificateException e) {
            throw new IllegalStateException("tls.client: cannot set up TLS: " + e.getMessage(), e);
        }
    }

    /** TLS towards backends, or null when off. */
    static SslContext forBackends(BackendTlsConfig config) {
        if (!config.enabled()) {
            return null;
        }
        try {
            SslContextBuilder builder = SslContextBuilder.forClient();
            if (!config.verify()) {
                log.warn("tls.backend.verify is false: any certificate is accepted, so whoever answers at a backend's"
                        + " address sees what the proxy sends there; set tls.backend.ca to the server's CA instead");
                builder.trustManager(InsecureTrustManagerFactory.INSTANCE);
            } else if (config.ca().isPresent()) {
                builder.trustManager(config.ca().get().toFile());
            }
            return builder.build();
        } catch (SSLException e) {
            throw new IllegalStateException("tls.backend: cannot set up TLS: " + e.getMessage(), e);
        }
    }
}
