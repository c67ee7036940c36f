package dev.sluice.config;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Text to typed values, shared by the YAML reader and the quick-start flags so both accept and
 * reject the same things with the same words. Each method throws IllegalArgumentException whose
 * message starts with the quoted text and ends with what was expected.
 */
final class Scalars {

    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");
    private static final Pattern DECIMAL = Pattern.compile("[+-]?[0-9]*\\.[0-9]+([eE][+-]?[0-9]+)?");

    private Scalars() {
    }

    static int integer(String text, long min, long max) {
        String expected = integerExpected(min, max);
        if (!INTEGER.matcher(text).matches()) {
            String what = DECIMAL.matcher(text).matches() ? " is not a whole number" : " is not a number";
            throw new IllegalArgumentException(Messages.quote(text) + what + " (expected: " + expected + ")");
        }
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException tooLong) {
            throw new IllegalArgumentException(text + " is out of range (expected: " + expected + ")");
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException(text + " is out of range (expected: " + expected + ")");
        }
        return (int) value;
    }

    static String integerExpected(long min, long max) {
        if (max == Integer.MAX_VALUE) {
            return min == 1 ? "an integer > 0" : "an integer >= " + min;
        }
        return "an integer from " + min + " to " + max;
    }

    static boolean bool(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(Messages.quote(text)
                    + " is not a boolean (expected: true or false)");
        };
    }

    static int byteSize(String text, int min, int max) {
        long value = ByteSizes.parse(text);
        if (value < min || value > max) {
            throw new IllegalArgumentException(Messages.quote(text) + " is out of range (expected: "
                    + ByteSizes.format(min) + " to " + ByteSizes.format(max) + " bytes)");
        }
        return (int) value;
    }

    static Duration duration(String text, Duration min, Duration max) {
        Duration value = Durations.parse(text);
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new IllegalArgumentException(Messages.quote(text) + " is out of range (expected: "
                    + Durations.format(min) + " to " + Durations.format(max) + ")");
        }
        return value;
    }

    static HostPort backendAddress(String text) {
        HostPort address = HostPort.parse(text);
        if (address.port() == 0) {
            throw new IllegalArgumentException(Messages.quote(text)
                    + ": port 0 is not a backend port (expected: 1 to " + HostPort.MAX_PORT + ")");
        }
        return address;
    }

    static String name(String text) {
        if (text.isEmpty()) {
            throw new IllegalArgumentException("empty name (expected: a non-empty name)");
        }
        return text;
    }
}
