package dev.sluice.protocol.auth;

import java.security.GeneralSecurityException;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.util.Arrays;
import javax.crypto.Cipher;

/**
 * The password as caching_sha2_password sends it without TLS:
 * {@code RSA-OAEP(SHA-1, MGF1-SHA-1)((password + NUL) XOR seed repeated)}, which is OpenSSL's
 * RSA_PKCS1_OAEP_PADDING that MySQL 8.0.5 and later use.
 */
final class RsaPasswordCipher {

    private static final String TRANSFORMATION = "RSA/ECB/OAEPWithSHA-1AndMGF1Padding";
    /** OAEP with SHA-1 takes 2 * 20 + 2 bytes of each block. */
    private static final int OAEP_OVERHEAD = 42;

    private RsaPasswordCipher() {
    }

    /** @throws IllegalArgumentException when the password does not fit in one RSA block of this key */
    static byte[] encrypt(byte[] password, byte[] seed, RSAPublicKey key) {
        int capacity = (key.getModulus().bitLength() + 7) / 8 - OAEP_OVERHEAD;
        if (password.length + 1 > capacity) {
            throw new IllegalArgumentException("password of " + password.length + " bytes is too long for RSA-OAEP with a "
                    + key.getModulus().bitLength() + "-bit key (at most " + (capacity - 1) + ")");
        }
        byte[] plain = Digests.xor(Arrays.copyOf(password, password.length + 1), seed);
        try {
            Cipher cipher = Cipher.getInstance(TRANSFORMATION);
            cipher.init(Cipher.ENCRYPT_MODE, key);
            return cipher.doFinal(plain);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(TRANSFORMATION + " failed on a valid key", e);
        }
    }

    /** The password, or null when the bytes do not decrypt to (password + NUL) XOR seed under this key. */
    static byte[] decrypt(byte[] ciphertext, byte[] seed, RSAPrivateKey key) {
        byte[] plain;
        try {
            Cipher cipher = Cipher.getInstance(TRANSFORMATION);
            cipher.init(Cipher.DECRYPT_MODE, key);
            plain = Digests.xor(cipher.doFinal(ciphertext), seed);
        } catch (GeneralSecurityException e) {
            return null;
        }
        if (plain.length == 0 || plain[plain.length - 1] != 0) {
            return null;
        }
        return Arrays.copyOf(plain, plain.length - 1);
    }
}
