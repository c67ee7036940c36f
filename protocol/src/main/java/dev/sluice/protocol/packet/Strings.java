package dev.sluice.protocol.packet;

import dev.sluice.protocol.Wire;
import java.nio.charset.StandardCharsets;

/** UTF-8 conversions and sizes of length-prefixed strings, for blocks that carry their own length. */
final class Strings {

    private Strings() {
    }

    static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    static byte[] utf8(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    /** Bytes {@link Wire#writeBytesLenenc} takes for {@code value}. */
    static int lenencSize(byte[] value) {
        return Wire.lenencSize(value.length) + value.length;
    }
}
