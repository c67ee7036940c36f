package dev.sluice.proxy.capture;

import java.util.Arrays;

/** Chars encoded to UTF-8 into one reused array: the writer encodes every line without allocating. */
final class Utf8Buffer {

    private byte[] bytes = new byte[8192];
    private int length;

    /** Replaces the content with {@code text} encoded; a lone surrogate becomes '?'. */
    void encode(CharSequence text) {
        length = 0;
        int n = text.length();
        ensure(n * 3);
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes[length++] = (byte) c;
            } else if (c < 0x800) {
                bytes[length++] = (byte) (0xC0 | (c >> 6));
                bytes[length++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, text.charAt(++i));
                bytes[length++] = (byte) (0xF0 | (cp >> 18));
                bytes[length++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                bytes[length++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                bytes[length++] = (byte) (0x80 | (cp & 0x3F));
            } else if (Character.isSurrogate(c)) {
                bytes[length++] = '?';
            } else {
                bytes[length++] = (byte) (0xE0 | (c >> 12));
                bytes[length++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                bytes[length++] = (byte) (0x80 | (c & 0x3F));
            }
        }
    }

    byte[] array() {
        return bytes;
    }

    int length() {
        return length;
    }

    private void ensure(int capacity) {
        if (capacity > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(capacity, bytes.length * 2));
        }
    }
}
