package dev.sluice.protocol.packet;

import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.Wire;
import io.netty.buffer.ByteBuf;

/**
 * {@link Wire} reads that name the packet and field on failure, e.g.
 * {@code int<2>: needs 2 bytes (available: 1) in OkPacket.status_flags}. Each {@code where} is a
 * constant "Packet.field" string, so a successful read allocates nothing extra.
 */
final class Fields {

    private Fields() {
    }

    static int int1(ByteBuf in, String where) {
        try {
            return Wire.readInt1(in);
        } catch (ProtocolException e) {
            throw e.in(where);
        }
    }

    static int int2(ByteBuf in, String where) {
        try {
            return Wire.readInt2(in);
        } catch (ProtocolException e) {
            throw e.in(where);
        }
    }

    static int int3(ByteBuf in, String where) {
        try {
            return Wire.readInt3(in);
        } catch (ProtocolException e) {
            throw e.in(where);
        }
    }

    static long int4(ByteBuf in, String where) {
        try {
            return Wire.readInt4(in);
        } catch (ProtocolException e) {
            throw e.in(where);
        }
    }

    /** int&lt;lenenc&gt; where NULL (0xFB) cannot occur; 8-byte values are unsigned. */
    static long intLenenc(ByteBuf in, String where) {
        try {
            long value = Wire.readIntLenenc(in);
            if (value == Wire.NULL_LENGTH) {
                throw new ProtocolException("int<lenenc>: first byte 0xfb (NULL) where a number is required");
            }
            return value;
        } catch (ProtocolException e) {
            throw e.in(where);
        }
    }

    static byte[] bytesFix(ByteBuf in, int length, String where) {
        try {
            return Wire.readBytesFix(in, length);
        } catch (ProtocolException e) {
            throw e.in(where);
        }
    }

    static void skip(ByteBuf in, int length, String where) {
        try {
            Wire.need(in, length, "skipped bytes");
        } catch (ProtocolException e) {
            throw e.in(where);
        }
        in.skipBytes(length);
    }

    /** string&lt;lenenc&gt; where NULL (0xFB) cannot occur. */
    static byte[] bytesLenenc(ByteBuf in, String where) {
        try {
            byte[] bytes = Wire.readBytesLenenc(in);
            if (bytes == null) {
                throw new ProtocolException("string<lenenc>: first byte 0xfb (NULL) where a string is required");
            }
            return bytes;
        } catch (ProtocolException e) {
            throw e.in(where);
        }
    }

    static String stringLenenc(ByteBuf in, String where) {
        return Strings.utf8(bytesLenenc(in, where));
    }

    static byte[] bytesNul(ByteBuf in, String where) {
        try {
            return Wire.readBytesNul(in);
        } catch (ProtocolException e) {
            throw e.in(where);
        }
    }

    static String stringNul(ByteBuf in, String where) {
        return Strings.utf8(bytesNul(in, where));
    }

    static byte[] bytesEof(ByteBuf in) {
        return Wire.readBytesEof(in);
    }

    static String stringEof(ByteBuf in) {
        return Wire.readStringEof(in);
    }

    /** Reads the header byte and fails unless it is {@code expected}. */
    static void header(ByteBuf in, int expected, String packet) {
        int header = int1(in, packet + ".header");
        if (header != expected) {
            throw new ProtocolException(String.format("%s.header: 0x%02x (expected: 0x%02x)", packet, header, expected));
        }
    }

    /** Fails when the payload has bytes after the packet's last field. */
    static void end(ByteBuf in, String packet) {
        if (in.isReadable()) {
            throw new ProtocolException(packet + ": " + in.readableBytes()
                    + " bytes after the last field (expected: end of payload)");
        }
    }

    /** A count that sizes an allocation must fit in the bytes left, at {@code bytesEach} per item. */
    static int count(ByteBuf in, long count, int bytesEach, String where) {
        if (count < 0 || count > in.readableBytes() / Math.max(1, bytesEach)) {
            throw new ProtocolException(where + ": " + Long.toUnsignedString(count) + " items of >= " + bytesEach
                    + " bytes (expected: fit in the " + in.readableBytes() + " remaining bytes)");
        }
        return (int) count;
    }
}
