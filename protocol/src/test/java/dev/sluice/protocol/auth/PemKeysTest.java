package dev.sluice.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import org.junit.jupiter.api.Test;

/** PEM in and out, against keys OpenSSL wrote (see {@link TestKeys}). */
class PemKeysTest {

    @Test
    void pkcs1AndPkcs8PrivateKeysAreTheSameKey() {
        RSAPrivateCrtKey pkcs1 = PemKeys.privateKeyFromPem(TestKeys.resource("test-rsa-pkcs1.pem"));
        RSAPrivateCrtKey pkcs8 = PemKeys.privateKeyFromPem(TestKeys.resource("test-rsa-pkcs8.pem"));
        assertThat(pkcs1.getModulus()).isEqualTo(pkcs8.getModulus());
        assertThat(pkcs1.getPrivateExponent()).isEqualTo(pkcs8.getPrivateExponent());
        assertThat(pkcs1.getModulus().bitLength()).isEqualTo(2048);
        assertThat(pkcs1.getPublicExponent()).isEqualTo(BigInteger.valueOf(65537));
    }

    @Test
    void derivedPublicKeyIsTheOneOpenSslWrote() {
        RSAPublicKey fromOpenSsl = PemKeys.publicKeyFromPem(TestKeys.resource("test-rsa-public.pem"));
        RSAPublicKey fromPkcs1 = PemKeys.publicKeyFromPem(TestKeys.resource("test-rsa-public-pkcs1.pem"));
        assertThat(TestKeys.PAIR.publicKey()).isEqualTo(fromOpenSsl).isEqualTo(fromPkcs1);
        // Same DER, same 64-character base64 lines: what OpenSSL (and so MySQL) writes.
        assertThat(TestKeys.PAIR.publicKeyPem()).isEqualTo(TestKeys.resource("test-rsa-public.pem"));
    }

    @Test
    void generatedKeyRoundTrips() {
        RsaKeyPair pair = RsaKeyPair.generate(RsaKeyPair.DEFAULT_BITS);
        assertThat(pair.publicKey().getModulus().bitLength()).isEqualTo(2048);
        assertThat(PemKeys.publicKeyFromPem(pair.publicKeyPem())).isEqualTo(pair.publicKey());
        assertThat(pair.toString()).isEqualTo("RsaKeyPair[2048 bits]");
    }

    @Test
    void readsThePublicKeyGoSqlDriversTestServerSends() {
        String pem = """
                -----BEGIN PUBLIC KEY-----
                MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA3HsxS5P/HaXPvm3m2ADn
                bu6GQfpSGo7h2gh81pmaxkCnDCwf6mmeH7LKhsnYnN4Q0cz1QE/bhdPu6js+VaY4
                CcMubPN1gOKaYvNcgEWptICi2XTttB7uh+vCMjLvjAMd6/DmxdbUB0zPGqDOgiLD
                KROO5qd7shb71R/XJEFvLxGXEF0ZthHeNo9fEvxFQomb1kZ9J8nBwte5SF5YlqV2
                BB5qlaz+3QSNvmC1iWfljXbY5k3/a6mkM/LaWhauN5PR3sCx5Uu1MfdsVik5fXMM
                dxkfF+X3chkAnwI3Fuww2WGmWOGbKtmIeUm3bIRmdFUqalQiFhqeZ2ikjhgVI9pL
                wQIDAQAB
                -----END PUBLIC KEY-----
                """;
        RSAPublicKey key = PemKeys.publicKeyFromPem(pem);
        assertThat(key.getModulus().bitLength()).isEqualTo(2048);
        // `openssl pkey -pubin -text` on the same PEM: "Modulus: 00:dc:7b:31:4b:93:ff:1d:a5 ..."
        assertThat(key.getModulus().toString(16)).startsWith("dc7b314b93ff1da5");
        assertThat(PemKeys.publicKeyToPem(key)).isEqualTo(pem);
    }

    @Test
    void badInputSaysWhatItFound() {
        assertThatThrownBy(() -> PemKeys.publicKeyFromPem("hello\nworld"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("PEM: no '-----BEGIN PUBLIC KEY-----' ... '-----END PUBLIC KEY-----' block (first line: 'hello')");
        assertThatThrownBy(() -> PemKeys.publicKeyFromPem("-----BEGIN PUBLIC KEY-----\n!!!!\n-----END PUBLIC KEY-----\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("PEM PUBLIC KEY: body is not base64");
        assertThatThrownBy(() -> PemKeys.publicKeyFromPem("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("PEM public key: 3 bytes of DER that are not an RSA public key");
        assertThatThrownBy(() -> PemKeys.privateKeyFromPem(TestKeys.resource("test-rsa-public.pem")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("PEM: no '-----BEGIN PRIVATE KEY-----' ... '-----END PRIVATE KEY-----' block"
                        + " (first line: '-----BEGIN PUBLIC KEY-----')");
    }
}
