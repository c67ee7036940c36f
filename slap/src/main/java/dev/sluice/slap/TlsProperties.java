package dev.sluice.slap;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Maps the mysql client's PEM-based TLS options onto Connector/J, which reads key stores: the CA
 * certificates and the client key pair are written to temporary PKCS#12 files for the run.
 */
final class TlsProperties {

    private static final String RSA_OID_PREFIX = "300d06092a864886f70d0101010500";

    private TlsProperties() {
    }

    static void apply(SslOptions ssl, Properties properties) {
        properties.setProperty("sslMode", ssl.sslMode());
        if (!ssl.enabled()) {
            return;
        }
        if (ssl.tlsVersion() != null) {
            properties.setProperty("tlsVersions", ssl.tlsVersion());
        }
        if (ssl.cipher() != null) {
            properties.setProperty("tlsCiphersuites", ssl.cipher().replace(':', ','));
        }
        try {
            if (ssl.ca() != null || ssl.capath() != null) {
                List<Certificate> trusted = new ArrayList<>();
                if (ssl.ca() != null) {
                    trusted.addAll(certificates(Path.of(ssl.ca())));
                }
                if (ssl.capath() != null) {
                    try (Stream<Path> files = Files.list(Path.of(ssl.capath()))) {
                        for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                            trusted.addAll(certificates(file));
                        }
                    }
                }
                if (trusted.isEmpty()) {
                    throw new SlapException("--ssl-ca/--ssl-capath: no PEM certificate found", 1);
                }
                KeyStore store = emptyStore();
                for (int i = 0; i < trusted.size(); i++) {
                    store.setCertificateEntry("ca" + i, trusted.get(i));
                }
                String password = UUID.randomUUID().toString();
                properties.setProperty("trustCertificateKeyStoreUrl", save(store, password));
                properties.setProperty("trustCertificateKeyStoreType", "PKCS12");
                properties.setProperty("trustCertificateKeyStorePassword", password);
            }
            if ((ssl.cert() == null) != (ssl.key() == null)) {
                throw new SlapException("--ssl-cert and --ssl-key go together (expected: both or neither)", 1);
            }
            if (ssl.cert() != null) {
                List<Certificate> chain = certificates(Path.of(ssl.cert()));
                if (chain.isEmpty()) {
                    throw new SlapException("--ssl-cert " + ssl.cert() + ": no PEM certificate found", 1);
                }
                String password = UUID.randomUUID().toString();
                KeyStore store = emptyStore();
                store.setKeyEntry("client", privateKey(Path.of(ssl.key())), password.toCharArray(),
                        chain.toArray(Certificate[]::new));
                properties.setProperty("clientCertificateKeyStoreUrl", save(store, password));
                properties.setProperty("clientCertificateKeyStoreType", "PKCS12");
                properties.setProperty("clientCertificateKeyStorePassword", password);
            }
        } catch (IOException | GeneralSecurityException e) {
            throw new SlapException("Cannot read the TLS files: " + e.getMessage(), 1, e);
        }
    }

    private static List<Certificate> certificates(Path file) throws IOException, GeneralSecurityException {
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        byte[] bytes = Files.readAllBytes(file);
        return new ArrayList<>(factory.generateCertificates(new ByteArrayInputStream(bytes)));
    }

    private static PrivateKey privateKey(Path file) throws IOException, GeneralSecurityException {
        String pem = Files.readString(file);
        byte[] der;
        if (pem.contains("-----BEGIN PRIVATE KEY-----")) {
            der = pemBody(pem, "PRIVATE KEY");
        } else if (pem.contains("-----BEGIN RSA PRIVATE KEY-----")) {
            der = pkcs1ToPkcs8(pemBody(pem, "RSA PRIVATE KEY"));
        } else {
            throw new SlapException("--ssl-key " + file + ": expected an unencrypted PEM key"
                    + " (BEGIN PRIVATE KEY or BEGIN RSA PRIVATE KEY)", 1);
        }
        for (String algorithm : List.of("RSA", "EC", "Ed25519")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // Not this algorithm; try the next.
            }
        }
        throw new SlapException("--ssl-key " + file + ": not an RSA, EC or Ed25519 key", 1);
    }

    private static byte[] pemBody(String pem, String label) {
        String begin = "-----BEGIN " + label + "-----";
        String end = "-----END " + label + "-----";
        int from = pem.indexOf(begin) + begin.length();
        int to = pem.indexOf(end, from);
        if (to < 0) {
            throw new SlapException("PEM block " + label + " has no END line", 1);
        }
        return Base64.getMimeDecoder().decode(pem.substring(from, to));
    }

    /** PrivateKeyInfo { version 0, rsaEncryption, OCTET STRING pkcs1 } (RFC 5208). */
    static byte[] pkcs1ToPkcs8(byte[] pkcs1) {
        byte[] version = {0x02, 0x01, 0x00};
        byte[] algorithm = java.util.HexFormat.of().parseHex(RSA_OID_PREFIX);
        byte[] octets = derWrap(0x04, pkcs1);
        byte[] body = new byte[version.length + algorithm.length + octets.length];
        System.arraycopy(version, 0, body, 0, version.length);
        System.arraycopy(algorithm, 0, body, version.length, algorithm.length);
        System.arraycopy(octets, 0, body, version.length + algorithm.length, octets.length);
        return derWrap(0x30, body);
    }

    private static byte[] derWrap(int tag, byte[] content) {
        int length = content.length;
        byte[] header;
        if (length < 0x80) {
            header = new byte[] {(byte) tag, (byte) length};
        } else if (length < 0x100) {
            header = new byte[] {(byte) tag, (byte) 0x81, (byte) length};
        } else if (length < 0x10000) {
            header = new byte[] {(byte) tag, (byte) 0x82, (byte) (length >> 8), (byte) length};
        } else {
            header = new byte[] {(byte) tag, (byte) 0x83, (byte) (length >> 16), (byte) (length >> 8), (byte) length};
        }
        byte[] out = new byte[header.length + length];
        System.arraycopy(header, 0, out, 0, header.length);
        System.arraycopy(content, 0, out, header.length, length);
        return out;
    }

    private static KeyStore emptyStore() throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        return store;
    }

    private static String save(KeyStore store, String password) throws IOException, GeneralSecurityException {
        Path file = Files.createTempFile("slap-tls-", ".p12");
        file.toFile().deleteOnExit();
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, password.toCharArray());
        }
        return file.toUri().toString();
    }
}
