package dev.sluice.protocol.auth;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/**
 * RSA keys in PEM with the JDK alone. Public keys: {@code BEGIN PUBLIC KEY} (X.509
 * SubjectPublicKeyInfo, what MySQL sends and stores in public_key.pem) or {@code BEGIN RSA
 * PUBLIC KEY} (PKCS#1). Private keys: {@code BEGIN PRIVATE KEY} (PKCS#8) or {@code BEGIN RSA
 * PRIVATE KEY} (PKCS#1, what MySQL's auto-generated private_key.pem holds). PKCS#1 is wrapped into
 * the structure the JDK reads by prefixing the DER header, since the JDK has no PKCS#1 KeySpec.
 */
public final class PemKeys {

    /** AlgorithmIdentifier { rsaEncryption (1.2.840.113549.1.1.1), NULL }. */
    private static final byte[] RSA_ALGORITHM = {
        0x30, 0x0D, 0x06, 0x09, 0x2A, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00,
    };

    private PemKeys() {
    }

    /** {@code -----BEGIN PUBLIC KEY-----}, base64 in 64-character lines, as MySQL writes it. */
    public static String publicKeyToPem(RSAPublicKey key) {
        String body = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(key.getEncoded());
        return "-----BEGIN PUBLIC KEY-----\n" + body + "\n-----END PUBLIC KEY-----\n";
    }

    /** @throws IllegalArgumentException when {@code pem} holds no RSA public key, saying what it found */
    public static RSAPublicKey publicKeyFromPem(String pem) {
        byte[] der;
        if (pem.contains("-----BEGIN RSA PUBLIC KEY-----")) {
            byte[] pkcs1 = body(pem, "RSA PUBLIC KEY");
            byte[] bitString = concat(new byte[] {0x03}, derLength(pkcs1.length + 1), new byte[] {0}, pkcs1);
            der = sequence(RSA_ALGORITHM, bitString);
        } else {
            der = body(pem, "PUBLIC KEY");
        }
        try {
            return (RSAPublicKey) KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der));
        } catch (GeneralSecurityException | ClassCastException e) {
            throw new IllegalArgumentException("PEM public key: " + der.length + " bytes of DER that are not an RSA public key ("
                    + e.getMessage() + ")", e);
        }
    }

    /** @throws IllegalArgumentException when {@code pem} holds no RSA private key, saying what it found */
    public static RSAPrivateCrtKey privateKeyFromPem(String pem) {
        byte[] der;
        if (pem.contains("-----BEGIN RSA PRIVATE KEY-----")) {
            byte[] pkcs1 = body(pem, "RSA PRIVATE KEY");
            byte[] octetString = concat(new byte[] {0x04}, derLength(pkcs1.length), pkcs1);
            der = sequence(new byte[] {0x02, 0x01, 0x00}, RSA_ALGORITHM, octetString);
        } else {
            der = body(pem, "PRIVATE KEY");
        }
        try {
            return (RSAPrivateCrtKey) KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (GeneralSecurityException | ClassCastException e) {
            throw new IllegalArgumentException("PEM private key: " + der.length
                    + " bytes of DER that are not an RSA private key (" + e.getMessage() + ")", e);
        }
    }

    private static byte[] body(String pem, String label) {
        String begin = "-----BEGIN " + label + "-----";
        String end = "-----END " + label + "-----";
        int from = pem.indexOf(begin);
        int to = from < 0 ? -1 : pem.indexOf(end, from);
        if (from < 0 || to < 0) {
            String firstLine = pem.strip().lines().findFirst().orElse("");
            throw new IllegalArgumentException("PEM: no '" + begin + "' ... '" + end + "' block (first line: '"
                    + (firstLine.length() > 40 ? firstLine.substring(0, 40) + "..." : firstLine) + "')");
        }
        try {
            // Not the MIME decoder: it skips characters outside the alphabet, so garbage would pass as an empty key.
            String base64 = pem.substring(from + begin.length(), to).replaceAll("\\s+", "");
            return Base64.getDecoder().decode(base64.getBytes(StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("PEM " + label + ": body is not base64 (" + e.getMessage() + ")", e);
        }
    }

    private static byte[] sequence(byte[]... contents) {
        byte[] content = concat(contents);
        return concat(new byte[] {0x30}, derLength(content.length), content);
    }

    /** DER definite length: short form below 128, else 0x80|count followed by the big-endian bytes. */
    private static byte[] derLength(int length) {
        if (length < 0x80) {
            return new byte[] {(byte) length};
        }
        int count = (Integer.SIZE - Integer.numberOfLeadingZeros(length) + 7) / 8;
        byte[] out = new byte[1 + count];
        out[0] = (byte) (0x80 | count);
        for (int i = 0; i < count; i++) {
            out[count - i] = (byte) (length >>> (8 * i));
        }
        return out;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
