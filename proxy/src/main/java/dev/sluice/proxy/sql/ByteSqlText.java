package dev.sluice.proxy.sql;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * SQL text in a byte array, read one byte per char. This is exact for the syntax, which is all
 * ASCII, whenever the charset never uses an ASCII byte inside a multi-byte character: UTF-8 and
 * the single-byte charsets. Bytes from 0x80 up are identifier characters to the lexer, as they
 * are to the server. Substrings are decoded with the real charset.
 */
final class ByteSqlText implements CharSequence {
    private static final byte[] NONE = new byte[0];

    private byte[] bytes = NONE;
    private int offset;
    private int length;
    private Charset charset = StandardCharsets.UTF_8;

    /** Whether {@code charset} can be read byte by byte without mistaking part of a character for syntax. */
    static boolean readableInPlace(Charset charset) {
        String name = charset.name();
        return charset.equals(StandardCharsets.UTF_8) || charset.equals(StandardCharsets.ISO_8859_1)
                || charset.equals(StandardCharsets.US_ASCII) || name.startsWith("ISO-8859-")
                || name.startsWith("windows-125") || name.equals("KOI8-R") || name.equals("KOI8-U");
    }

    ByteSqlText reset(byte[] bytes, int offset, int length, Charset charset) {
        if (offset < 0 || length < 0 || offset > bytes.length - length) {
            throw new IndexOutOfBoundsException("offset " + offset + ", length " + length + " (expected: within "
                    + bytes.length + " bytes)");
        }
        this.bytes = bytes;
        this.offset = offset;
        this.length = length;
        this.charset = charset;
        return this;
    }

    /** Drops the reference to the caller's array. */
    void clear() {
        bytes = NONE;
        offset = 0;
        length = 0;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        return (char) (bytes[offset + index] & 0xFF);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return new String(bytes, offset + start, end - start, charset);
    }

    /** Appends {@code [start, end)}, decoded, to {@code out}. */
    void appendTo(StringBuilder out, int start, int end) {
        for (int i = start; i < end; i++) {
            if (bytes[offset + i] < 0) {
                out.append(subSequence(start, end));
                return;
            }
        }
        for (int i = start; i < end; i++) {
            out.append((char) bytes[offset + i]);
        }
    }

    @Override
    public String toString() {
        return new String(bytes, offset, length, charset);
    }
}
