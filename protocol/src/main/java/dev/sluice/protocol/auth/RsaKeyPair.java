package dev.sluice.protocol.auth;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.RSAPublicKeySpec;
import java.util.Objects;

/**
 * The server side's RSA key pair for caching_sha2_password full authentication without TLS,
 * with the public key's PEM ready to send to clients that ask for it.
 */
public record RsaKeyPair(RSAPublicKey publicKey, RSAPrivateKey privateKey, String publicKeyPem) {

    public static final int DEFAULT_BITS = 2048;

    public RsaKeyPair {
        Objects.requireNonNull(publicKey, "publicKey");
        Objects.requireNonNull(privateKey, "privateKey");
        Objects.requireNonNull(publicKeyPem, "publicKeyPem");
    }

    public RsaKeyPair(RSAPublicKey publicKey, RSAPrivateKey privateKey) {
        this(publicKey, privateKey, PemKeys.publicKeyToPem(publicKey));
    }

    /** A fresh pair of {@code bits}; MySQL generates one of 2048 at its first start. */
    public static RsaKeyPair generate(int bits) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(bits);
            var pair = generator.generateKeyPair();
            return new RsaKeyPair((RSAPublicKey) pair.getPublic(), (RSAPrivateKey) pair.getPrivate());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("RSA key generation is missing from this JDK", e);
        }
    }

    /** Loads a private key PEM (PKCS#8 or PKCS#1, e.g. MySQL's private_key.pem) and derives its public key. */
    public static RsaKeyPair fromPrivateKeyPem(String pem) {
        RSAPrivateCrtKey privateKey = PemKeys.privateKeyFromPem(pem);
        try {
            RSAPublicKey publicKey = (RSAPublicKey) KeyFactory.getInstance("RSA")
                    .generatePublic(new RSAPublicKeySpec(privateKey.getModulus(), privateKey.getPublicExponent()));
            return new RsaKeyPair(publicKey, privateKey);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("PEM private key: cannot derive its public key (" + e.getMessage() + ")", e);
        }
    }

    @Override
    public String toString() {
        return "RsaKeyPair[" + publicKey.getModulus().bitLength() + " bits]";
    }
}
