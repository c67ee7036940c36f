package dev.sluice.testkit;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The few ASN.1 DER encodings a self-signed X.509 certificate needs (ITU-T X.690): each method
 * returns one complete tag-length-value.
 */
final class Der {

    private static final DateTimeFormatter UTC_TIME =
            DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter GENERALIZED_TIME =
            DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);

    private Der() {
    }

    static byte[] sequence(byte[]... members) {
        return tlv(0x30, concat(members));
    }

    static byte[] set(byte[]... members) {
        return tlv(0x31, concat(members));
    }

    /** A context-specific constructed tag, {@code [n] EXPLICIT}. */
    static byte[] explicit(int tagNumber, byte[] content) {
        return tlv(0xA0 | tagNumber, content);
    }

    static byte[] integer(BigInteger value) {
        return tlv(0x02, value.toByteArray());
    }

    static byte[] nullValue() {
        return new byte[] {0x05, 0x00};
    }

    static byte[] utf8String(String value) {
        return tlv(0x0C, value.getBytes(StandardCharsets.UTF_8));
    }

    /** BIT STRING whose content is whole bytes: the leading 0 says no bits are unused. */
    static byte[] bitString(byte[] bytes) {
        byte[] content = new byte[bytes.length + 1];
        System.arraycopy(bytes, 0, content, 1, bytes.length);
        return tlv(0x03, content);
    }

    /** X.509 (RFC 5280 4.1.2.5): UTCTime through 2049, GeneralizedTime from 2050 on. */
    static byte[] time(Instant instant) {
        int year = instant.atZone(ZoneOffset.UTC).getYear();
        if (year < 2050) {
            return tlv(0x17, UTC_TIME.format(instant).getBytes(StandardCharsets.US_ASCII));
        }
        return tlv(0x18, GENERALIZED_TIME.format(instant).getBytes(StandardCharsets.US_ASCII));
    }

    /** An OBJECT IDENTIFIER in dotted form, e.g. {@code "2.5.4.3"}. */
    static byte[] objectIdentifier(String dotted) {
        String[] arcs = dotted.split("\\.");
        if (arcs.length < 2) {
            throw new IllegalArgumentException("object identifier: '" + dotted + "' (expected: at least two arcs)");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeBase128(out, 40L * Long.parseLong(arcs[0]) + Long.parseLong(arcs[1]));
        for (int i = 2; i < arcs.length; i++) {
            writeBase128(out, Long.parseLong(arcs[i]));
        }
        return tlv(0x06, out.toByteArray());
    }

    private static void writeBase128(ByteArrayOutputStream out, long value) {
        int groups = 1;
        for (long v = value >>> 7; v != 0; v >>>= 7) {
            groups++;
        }
        for (int g = groups - 1; g >= 0; g--) {
            int bits = (int) ((value >>> (7 * g)) & 0x7F);
            out.write(g == 0 ? bits : bits | 0x80);
        }
    }

    private static byte[] tlv(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
        out.write(tag);
        int length = content.length;
        if (length < 0x80) {
            out.write(length);
        } else {
            int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
