package dev.sluice.testkit;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;

/**
 * An RSA key and a self-signed certificate for the servers' TLS, written as PEM files.
 *
 * <p>Why: without --ssl-cert, MariaDB 11.4 generates a certificate at every start, which took 5 to
 * 15 s per server on this machine (0.4 s with a certificate given). One pair per cluster is enough.
 */
record SelfSignedCertificate(Path certificatePem, Path privateKeyPem) {

    static final String COMMON_NAME = "sluice-testkit";
    private static final String SHA256_WITH_RSA = "1.2.840.113549.1.1.11";
    private static final String COMMON_NAME_OID = "2.5.4.3";
    private static final Duration VALIDITY = Duration.ofDays(3650);

    /** Generates a fresh key and certificate into {@code directory} (cert.pem, key.pem). */
    static SelfSignedCertificate generate(Path directory) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            KeyPair keys = generator.generateKeyPair();
            byte[] certificate = certificateDer(keys, Instant.now().truncatedTo(ChronoUnit.SECONDS));

            Files.createDirectories(directory);
            Path cert = directory.resolve("cert.pem");
            Path key = directory.resolve("key.pem");
            Files.writeString(cert, pem("CERTIFICATE", certificate), StandardCharsets.US_ASCII);
            // getEncoded() of an RSA private key is PKCS#8, which MariaDB reads as "PRIVATE KEY".
            Files.writeString(key, pem("PRIVATE KEY", keys.getPrivate().getEncoded()), StandardCharsets.US_ASCII);
            return new SelfSignedCertificate(cert, key);
        } catch (GeneralSecurityException | IOException e) {
            throw new MariaDbException("cannot create the servers' TLS certificate in " + directory, e);
        }
    }

    /** RFC 5280 4.1: Certificate = SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }. */
    static byte[] certificateDer(KeyPair keys, Instant notBefore) throws GeneralSecurityException {
        byte[] algorithm = Der.sequence(Der.objectIdentifier(SHA256_WITH_RSA), Der.nullValue());
        byte[] name = Der.sequence(Der.set(Der.sequence(
                Der.objectIdentifier(COMMON_NAME_OID), Der.utf8String(COMMON_NAME))));
        byte[] tbs = Der.sequence(
                Der.explicit(0, Der.integer(BigInteger.TWO)), // version v3
                Der.integer(new BigInteger(63, new SecureRandom()).add(BigInteger.ONE)),
                algorithm,
                name,
                Der.sequence(Der.time(notBefore.minus(Duration.ofDays(1))), Der.time(notBefore.plus(VALIDITY))),
                name,
                keys.getPublic().getEncoded()); // already a SubjectPublicKeyInfo

        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(keys.getPrivate());
        signer.update(tbs);
        return Der.sequence(tbs, algorithm, Der.bitString(signer.sign()));
    }

    private static String pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }
}
