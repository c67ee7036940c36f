package dev.sluice.protocol.auth;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/** The hashing the auth plugins share. */
final class Digests {

    /**
     * Stands in for the password of an unknown user, so checking a login for a user that does not
     * exist costs the same hashing and comparing as a wrong password.
     */
    static final byte[] UNKNOWN_USER_PASSWORD = new SecureRandom().generateSeed(16);

    private Digests() {
    }

    static byte[] sha1(byte[]... parts) {
        return digest("SHA-1", parts);
    }

    static byte[] sha256(byte[]... parts) {
        return digest("SHA-256", parts);
    }

    static byte[] xor(byte[] a, byte[] b) {
        byte[] out = new byte[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = (byte) (a[i] ^ b[i % b.length]);
        }
        return out;
    }

    /** Compares in time that depends only on the lengths, never on where the bytes differ. */
    static boolean constantTimeEquals(byte[] a, byte[] b) {
        return MessageDigest.isEqual(a, b);
    }

    /** A client sends an empty password as no bytes, or as a single NUL. */
    static boolean isEmptyResponse(byte[] response) {
        return response.length == 0 || (response.length == 1 && response[0] == 0);
    }

    private static byte[] digest(String algorithm, byte[]... parts) {
        try {
            MessageDigest digest = MessageDigest.getInstance(algorithm);
            for (byte[] part : parts) {
                digest.update(part);
            }
            return digest.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is missing from this JDK", e);
        }
    }
}
