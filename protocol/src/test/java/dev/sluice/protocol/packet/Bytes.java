package dev.sluice.protocol.packet;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/** Building golden byte arrays readably. */
final class Bytes {

    private Bytes() {
    }

    /** Bytes from ints, so arrays can be written as 0xfe without casts. */
    static byte[] of(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }

    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] hex(String spaced) {
        return HexFormat.of().parseHex(spaced.replaceAll("\\s+", ""));
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
