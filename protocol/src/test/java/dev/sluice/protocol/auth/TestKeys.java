package dev.sluice.protocol.auth;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The test RSA key pair in src/test/resources/dev/sluice/protocol/auth, made for these tests only
 * with OpenSSL 3.0.19: {@code openssl genrsa -traditional -out test-rsa-pkcs1.pem 2048}, then
 * {@code openssl pkcs8 -topk8 -nocrypt} (test-rsa-pkcs8.pem), {@code openssl rsa -pubout}
 * (test-rsa-public.pem) and {@code openssl rsa -RSAPublicKey_out} (test-rsa-public-pkcs1.pem).
 */
final class TestKeys {

    static final RsaKeyPair PAIR = RsaKeyPair.fromPrivateKeyPem(resource("test-rsa-pkcs1.pem"));
    static final RsaKeys KEYS = RsaKeys.of(PAIR);

    private TestKeys() {
    }

    static String resource(String name) {
        try (InputStream in = TestKeys.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("test resource " + name + " is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
