package dev.sluice.proxy.sql;

import java.nio.charset.Charset;
import java.util.Locale;
import java.util.Objects;

/**
 * Query digests: statements normalized so that the ones differing only in literals, spacing,
 * comments or keyword case share one text ({@link #normalize}) and one 64-bit hash
 * ({@link #fingerprint}).
 *
 * <p>The normalized text: literals (numbers, strings, hex and bit values, with sign and character
 * set introducer) become {@code ?}; TRUE, FALSE and NULL stay; an IN list of literals and
 * placeholders becomes {@code IN (...)}; VALUES rows that normalize like the first are folded
 * into {@code , ...}; comments go (executable comments' contents stay as code); keywords and
 * built-in function names are upper-cased; identifiers keep their case, and lose backquotes the
 * identifier does not need; variable names are lower-cased; tokens are separated by one space
 * (none inside parentheses, before {@code ,} {@code )}, around {@code .}, or after a function
 * name); a trailing {@code ;} and trailing NUL bytes go. Texts longer than the maximum length are
 * cut and end with {@code ...}. Text given as bytes is digested by its first
 * {@value #MAX_INPUT_BYTES} bytes: the text shown is cut far earlier anyway, and the cost of a
 * huge statement stays bounded.
 *
 * <p>Use {@link #fingerprint} on the hot path (it allocates nothing once warmed up) and call
 * {@link #normalize} only for digests not seen before: {@code hash(normalize(sql)) ==
 * fingerprint(sql)} always holds. Not thread-safe: keep one per thread (event loop).
 */
public final class Digest {
    /** MySQL's performance_schema cuts digest text at 1024 bytes; statements here keep more. */
    public static final int DEFAULT_MAX_LENGTH = 4096;
    /** The most bytes of a statement given as bytes that its digest reads (64 KiB). */
    public static final int MAX_INPUT_BYTES = 64 * 1024;
    private static final int KEEP_CAPACITY = 1 << 16;
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private final DigestWriter writer = new DigestWriter();
    private final ByteSqlText bytes = new ByteSqlText();
    private final int maxLength;
    private StringBuilder buffer = new StringBuilder(256);

    public Digest() {
        this(DEFAULT_MAX_LENGTH);
    }

    /** @param maxLength the longest normalized text kept, in chars (at least 16) */
    public Digest(int maxLength) {
        if (maxLength < 16) {
            throw new IllegalArgumentException("maxLength: " + maxLength + " (expected: >= 16)");
        }
        this.maxLength = maxLength;
    }

    public String normalize(CharSequence sql) {
        return normalize(sql, SqlMode.DEFAULT);
    }

    /** @throws NullPointerException when {@code sql} or {@code mode} is null */
    public String normalize(CharSequence sql, SqlMode mode) {
        String text = fill(sql, mode).toString();
        release();
        return text;
    }

    /**
     * Normalizes text given as bytes (the first {@value #MAX_INPUT_BYTES} of them), read in place
     * for UTF-8 and single-byte charsets.
     *
     * @throws IndexOutOfBoundsException when {@code offset} and {@code length} are not within the array
     */
    public String normalize(byte[] sql, int offset, int length, Charset charset, SqlMode mode) {
        return normalize(text(sql, offset, length, charset), mode);
    }

    /** The hash of the normalized text, computed without building a String. */
    public long fingerprint(CharSequence sql) {
        return fingerprint(sql, SqlMode.DEFAULT);
    }

    public long fingerprint(CharSequence sql, SqlMode mode) {
        long hash = hash(fill(sql, mode));
        release();
        return hash;
    }

    /** @throws IndexOutOfBoundsException when {@code offset} and {@code length} are not within the array */
    public long fingerprint(byte[] sql, int offset, int length, Charset charset, SqlMode mode) {
        return fingerprint(text(sql, offset, length, charset), mode);
    }

    /**
     * FNV-1a (64 bit) over the UTF-8 bytes of {@code normalized}, then MurmurHash3's fmix64
     * finalizer so that every bit depends on every byte.
     */
    public static long hash(CharSequence normalized) {
        long h = FNV_OFFSET;
        int length = normalized.length();
        for (int i = 0; i < length; i++) {
            char c = normalized.charAt(i);
            if (c < 0x80) {
                h = (h ^ c) * FNV_PRIME;
            } else if (c < 0x800) {
                h = (h ^ (0xC0 | (c >> 6))) * FNV_PRIME;
                h = (h ^ (0x80 | (c & 0x3F))) * FNV_PRIME;
            } else if (Character.isHighSurrogate(c) && i + 1 < length
                    && Character.isLowSurrogate(normalized.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, normalized.charAt(++i));
                h = (h ^ (0xF0 | (cp >> 18))) * FNV_PRIME;
                h = (h ^ (0x80 | ((cp >> 12) & 0x3F))) * FNV_PRIME;
                h = (h ^ (0x80 | ((cp >> 6) & 0x3F))) * FNV_PRIME;
                h = (h ^ (0x80 | (cp & 0x3F))) * FNV_PRIME;
            } else if (Character.isSurrogate(c)) {
                h = (h ^ '?') * FNV_PRIME;
            } else {
                h = (h ^ (0xE0 | (c >> 12))) * FNV_PRIME;
                h = (h ^ (0x80 | ((c >> 6) & 0x3F))) * FNV_PRIME;
                h = (h ^ (0x80 | (c & 0x3F))) * FNV_PRIME;
            }
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    /** 16 upper-case hex digits, as pt-query-digest prints its checksums (without the 0x). */
    public static String hex(long hash) {
        String digits = Long.toHexString(hash).toUpperCase(Locale.ROOT);
        return "0".repeat(16 - digits.length()) + digits;
    }

    private CharSequence text(byte[] sql, int offset, int length, Charset charset) {
        Objects.checkFromIndexSize(offset, length, sql.length);
        length = Math.min(length, MAX_INPUT_BYTES);
        return ByteSqlText.readableInPlace(charset)
                ? bytes.reset(sql, offset, length, charset)
                : new String(sql, offset, length, charset);
    }

    private StringBuilder fill(CharSequence sql, SqlMode mode) {
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(mode, "mode");
        buffer.setLength(0);
        writer.normalize(sql, mode, buffer);
        if (buffer.length() > maxLength) {
            int cut = maxLength - 3;
            if (Character.isHighSurrogate(buffer.charAt(cut - 1))) {
                cut--;
            }
            buffer.setLength(cut);
            buffer.append("...");
        }
        return buffer;
    }

    /** Lets go of the caller's bytes and of a buffer grown by one huge statement. */
    private void release() {
        bytes.clear();
        if (buffer.capacity() > KEEP_CAPACITY) {
            buffer = new StringBuilder(256);
        }
    }
}
