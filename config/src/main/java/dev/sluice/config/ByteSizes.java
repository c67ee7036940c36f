package dev.sluice.config;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Byte counts as MySQL's own options take them: a number of bytes, or a number with a binary
 * suffix K, M or G (also KiB, MiB, GiB), so {@code max_packet_size: 64M} means what
 * {@code max_allowed_packet=64M} means to the server.
 */
public final class ByteSizes {

    public static final String EXPECTED = "a number of bytes, optionally with K, M or G (1024-based), e.g. 16M or 1G";

    private static final Pattern SIZE = Pattern.compile("([0-9]{1,19})([KMG](iB)?)?");

    private ByteSizes() {
    }

    /**
     * Parses a byte count.
     *
     * @throws IllegalArgumentException naming the text and the expected form
     */
    public static long parse(String text) {
        Objects.requireNonNull(text, "text");
        Matcher size = SIZE.matcher(text.toUpperCase(Locale.ROOT).replace("IB", "iB"));
        if (!size.matches()) {
            throw new IllegalArgumentException(Messages.quote(text) + " is not a size (expected: " + EXPECTED + ")");
        }
        int shift = size.group(2) == null ? 0 : switch (size.group(2).charAt(0)) {
            case 'K' -> 10;
            case 'M' -> 20;
            case 'G' -> 30;
            default -> throw new IllegalStateException("suffix " + size.group(2) + " matched but not handled");
        };
        try {
            long amount = Long.parseLong(size.group(1));
            if (amount > (Long.MAX_VALUE >> shift)) {
                throw new NumberFormatException();
            }
            return amount << shift;
        } catch (NumberFormatException tooLarge) {
            throw new IllegalArgumentException(Messages.quote(text) + " is too large (expected: " + EXPECTED + ")");
        }
    }

    /** The shortest exact form that {@link #parse} reads back: {@code 1G}, {@code 16M}, {@code 1500}. */
    public static String format(long bytes) {
        if (bytes != 0 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + "G";
        }
        if (bytes != 0 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "M";
        }
        if (bytes != 0 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + "K";
        }
        return Long.toString(bytes);
    }
}
