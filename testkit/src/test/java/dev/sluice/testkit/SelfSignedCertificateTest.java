package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Date;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SelfSignedCertificateTest {

    @TempDir
    Path folder;

    @Test
    void writesACertificateTheJdkParsesAndWhoseSignatureVerifies() throws Exception {
        SelfSignedCertificate tls = SelfSignedCertificate.generate(folder);

        X509Certificate certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(tls.certificatePem())));

        certificate.verify(certificate.getPublicKey()); // self-signed: its own key signed it
        assertThat(certificate.getVersion()).isEqualTo(3);
        assertThat(certificate.getSigAlgName()).isEqualTo("SHA256withRSA");
        assertThat(certificate.getSubjectX500Principal().getName()).isEqualTo("CN=sluice-testkit");
        assertThat(certificate.getIssuerX500Principal()).isEqualTo(certificate.getSubjectX500Principal());
        certificate.checkValidity(new Date());
        assertThat(certificate.getSerialNumber().signum()).isPositive();
    }

    @Test
    void writesThePrivateKeyOfTheCertificateAsPkcs8() throws Exception {
        SelfSignedCertificate tls = SelfSignedCertificate.generate(folder);
        X509Certificate certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(tls.certificatePem())));

        String pem = Files.readString(tls.privateKeyPem(), StandardCharsets.US_ASCII);
        assertThat(pem).startsWith("-----BEGIN PRIVATE KEY-----\n").endsWith("-----END PRIVATE KEY-----\n");
        String body = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        PrivateKey key = KeyFactory.getInstance("RSA")
                .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(body)));

        byte[] message = "proof of possession".getBytes(StandardCharsets.UTF_8);
        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(key);
        signer.update(message);
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance("SHA256withRSA");
        verifier.initVerify(certificate.getPublicKey());
        verifier.update(message);
        assertThat(verifier.verify(signature)).isTrue();
    }

    @Test
    void wrapsPemLinesAt64Characters() throws Exception {
        SelfSignedCertificate tls = SelfSignedCertificate.generate(folder);
        for (String line : Files.readAllLines(tls.certificatePem(), StandardCharsets.US_ASCII)) {
            assertThat(line.length()).isLessThanOrEqualTo(64);
        }
    }
}
