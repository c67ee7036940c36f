package dev.sluice.protocol;

import io.netty.buffer.ByteBuf;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * The protocol's basic data types as static helpers, named after the MySQL docs' "Basic Data
 * Types" page (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_basic_data_types.html).
 * All reads are bounds-checked and fail with {@link ProtocolException}, never
 * IndexOutOfBoundsException; integers are little-endian.
 */
public final class Wire {

    /** Marks a NULL in a length-encoded integer position (text result rows). */
    public static final long NULL_LENGTH = -1;

    private Wire() {
    }

    public static int readInt1(ByteBuf buf) {
        need(buf, 1, "int<1>");
        return buf.readUnsignedByte();
    }

    public static int readInt2(ByteBuf buf) {
        need(buf, 2, "int<2>");
        return buf.readUnsignedShortLE();
    }

    public static int readInt3(ByteBuf buf) {
        need(buf, 3, "int<3>");
        return buf.readUnsignedMediumLE();
    }

    public static long readInt4(ByteBuf buf) {
        need(buf, 4, "int<4>");
        return buf.readUnsignedIntLE();
    }

    public static long readInt6(ByteBuf buf) {
        need(buf, 6, "int<6>");
        long low = buf.readUnsignedIntLE();
        return low | ((long) buf.readUnsignedShortLE() << 32);
    }

    public static long readInt8(ByteBuf buf) {
        need(buf, 8, "int<8>");
        return buf.readLongLE();
    }

    /**
     * int&lt;lenenc&gt;: 0xFB reads as {@link #NULL_LENGTH}; 0xFF (and 0xFB in places where NULL
     * cannot occur) are left to the caller, which knows whether an ERR or NULL may appear there.
     * An 8-byte value above Long.MAX_VALUE comes back negative; callers treat it as unsigned.
     */
    public static long readIntLenenc(ByteBuf buf) {
        int first = readInt1(buf);
        return switch (first) {
            case 0xFB -> NULL_LENGTH;
            case 0xFC -> readInt2(buf);
            case 0xFD -> readInt3(buf);
            case 0xFE -> readInt8(buf);
            case 0xFF -> throw new ProtocolException("int<lenenc>: first byte 0xff (expected: < 0xfb or 0xfc..0xfe)");
            default -> first;
        };
    }

    /** Bytes {@link #writeIntLenenc} takes for {@code value}. */
    public static int lenencSize(long value) {
        if (value >= 0 && value < 251) {
            return 1;
        }
        if (value >= 0 && value < (1 << 16)) {
            return 3;
        }
        if (value >= 0 && value < (1 << 24)) {
            return 4;
        }
        return 9;
    }

    public static void writeIntLenenc(ByteBuf buf, long value) {
        if (value >= 0 && value < 251) {
            buf.writeByte((int) value);
        } else if (value >= 0 && value < (1 << 16)) {
            buf.writeByte(0xFC).writeShortLE((int) value);
        } else if (value >= 0 && value < (1 << 24)) {
            buf.writeByte(0xFD).writeMediumLE((int) value);
        } else {
            buf.writeByte(0xFE).writeLongLE(value);
        }
    }

    /** string&lt;lenenc&gt; as raw bytes; NULL (0xFB) reads as null. */
    public static byte[] readBytesLenenc(ByteBuf buf) {
        long length = readIntLenenc(buf);
        if (length == NULL_LENGTH) {
            return null;
        }
        return readBytesFix(buf, checkedLength(buf, length, "string<lenenc>"));
    }

    public static String readStringLenenc(ByteBuf buf) {
        return readStringLenenc(buf, StandardCharsets.UTF_8);
    }

    public static String readStringLenenc(ByteBuf buf, Charset charset) {
        long length = readIntLenenc(buf);
        if (length == NULL_LENGTH) {
            return null;
        }
        return readStringFix(buf, checkedLength(buf, length, "string<lenenc>"), charset);
    }

    /** Skips one string&lt;lenenc&gt; (or NULL) without decoding it. */
    public static void skipStringLenenc(ByteBuf buf) {
        long length = readIntLenenc(buf);
        if (length != NULL_LENGTH) {
            buf.skipBytes(checkedLength(buf, length, "string<lenenc>"));
        }
    }

    public static void writeBytesLenenc(ByteBuf buf, byte[] bytes) {
        writeIntLenenc(buf, bytes.length);
        buf.writeBytes(bytes);
    }

    public static void writeStringLenenc(ByteBuf buf, String value) {
        writeBytesLenenc(buf, value.getBytes(StandardCharsets.UTF_8));
    }

    public static byte[] readBytesFix(ByteBuf buf, int length) {
        need(buf, length, "string<fix>");
        byte[] bytes = new byte[length];
        buf.readBytes(bytes);
        return bytes;
    }

    public static String readStringFix(ByteBuf buf, int length) {
        return readStringFix(buf, length, StandardCharsets.UTF_8);
    }

    public static String readStringFix(ByteBuf buf, int length, Charset charset) {
        need(buf, length, "string<fix>");
        String value = buf.toString(buf.readerIndex(), length, charset);
        buf.skipBytes(length);
        return value;
    }

    /** string&lt;NUL&gt; as raw bytes, consuming the terminator. */
    public static byte[] readBytesNul(ByteBuf buf) {
        int end = buf.indexOf(buf.readerIndex(), buf.writerIndex(), (byte) 0);
        if (end < 0) {
            throw new ProtocolException("string<NUL>: no NUL terminator in the remaining "
                    + buf.readableBytes() + " bytes");
        }
        byte[] bytes = readBytesFix(buf, end - buf.readerIndex());
        buf.skipBytes(1);
        return bytes;
    }

    public static String readStringNul(ByteBuf buf) {
        return new String(readBytesNul(buf), StandardCharsets.UTF_8);
    }

    public static void writeStringNul(ByteBuf buf, String value) {
        buf.writeBytes(value.getBytes(StandardCharsets.UTF_8)).writeByte(0);
    }

    public static void writeBytesNul(ByteBuf buf, byte[] value) {
        buf.writeBytes(value).writeByte(0);
    }

    /** string&lt;EOF&gt;: the rest of the packet. */
    public static byte[] readBytesEof(ByteBuf buf) {
        return readBytesFix(buf, buf.readableBytes());
    }

    public static String readStringEof(ByteBuf buf) {
        return readStringFix(buf, buf.readableBytes(), StandardCharsets.UTF_8);
    }

    /** Fails with a ProtocolException unless {@code length} more bytes are readable. */
    public static void need(ByteBuf buf, int length, String field) {
        if (buf.readableBytes() < length) {
            throw ProtocolException.truncated(field, length, buf.readableBytes());
        }
    }

    private static int checkedLength(ByteBuf buf, long length, String field) {
        if (length < 0 || length > buf.readableBytes()) {
            throw new ProtocolException(field + ": length " + Long.toUnsignedString(length)
                    + " (expected: <= " + buf.readableBytes() + " remaining bytes)");
        }
        return (int) length;
    }
}
