package dev.sluice.config;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as people write them in config files and flags: {@code 500ms}, {@code 10s},
 * {@code 5m}, {@code 1h}, {@code 2d}, combinations such as {@code 1h30m}, or a bare number of
 * seconds ({@code 30}).
 */
public final class Durations {

    /** What a duration looks like, for error messages. */
    public static final String EXPECTED =
            "a number with unit ms, s, m, h or d, e.g. 500ms, 10s, 5m, 1h30m; a bare number means seconds";

    private static final Pattern BARE_SECONDS = Pattern.compile("[0-9]{1,12}");
    private static final Pattern WHOLE = Pattern.compile("([0-9]{1,12}(ms|s|m|h|d))+");
    private static final Pattern PART = Pattern.compile("([0-9]{1,12})(ms|s|m|h|d)");

    private Durations() {
    }

    /**
     * Parses a duration.
     *
     * @throws IllegalArgumentException naming the text and the expected form
     */
    public static Duration parse(String text) {
        Objects.requireNonNull(text, "text");
        if (BARE_SECONDS.matcher(text).matches()) {
            return Duration.ofSeconds(Long.parseLong(text));
        }
        if (!WHOLE.matcher(text).matches()) {
            throw new IllegalArgumentException(Messages.quote(text) + " is not a duration (expected: " + EXPECTED + ")");
        }
        Duration total = Duration.ZERO;
        Matcher part = PART.matcher(text);
        while (part.find()) {
            total = plus(total, part, text);
        }
        return total;
    }

    private static Duration plus(Duration total, Matcher part, String text) {
        try {
            long amount = Long.parseLong(part.group(1));
            return total.plus(switch (part.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                case "d" -> Duration.ofDays(amount);
                default -> throw new IllegalStateException("unit " + part.group(2) + " matched but not handled");
            });
        } catch (ArithmeticException tooLong) {
            throw new IllegalArgumentException(Messages.quote(text) + " is too long a duration (expected: " + EXPECTED + ")");
        }
    }

    /**
     * Writes a duration the way {@link #parse} reads it, largest units first: {@code 8h},
     * {@code 1h30m}, {@code 500ms}, {@code 0s}. Sub-millisecond parts, which no config can hold,
     * fall back to ISO-8601.
     */
    public static String format(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            return "-" + format(duration.negated());
        }
        if (duration.isZero()) {
            return "0s";
        }
        if (duration.getNano() % 1_000_000 != 0) {
            return duration.toString();
        }
        StringBuilder text = new StringBuilder();
        append(text, duration.toDays(), "d");
        append(text, duration.toHoursPart(), "h");
        append(text, duration.toMinutesPart(), "m");
        append(text, duration.toSecondsPart(), "s");
        append(text, duration.toMillisPart(), "ms");
        return text.toString();
    }

    private static void append(StringBuilder text, long amount, String unit) {
        if (amount != 0) {
            text.append(amount).append(unit);
        }
    }
}
