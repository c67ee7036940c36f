package dev.sluice.slap;

import java.util.Locale;

/**
 * Numeric option values as the mysql clients read them (my_getopt): an integer with an optional
 * K, M, G, T, P or E suffix (powers of 1024), with the same messages and exit status 9 on bad input.
 */
final class MysqlNumber {

    static final int EXIT_BAD_VALUE = 9;
    private static final String SUFFIXES = "KMGTPE";

    private MysqlNumber() {
    }

    static long parse(String value, String option, long min, long max) {
        String text = value.strip();
        long multiplier = 1;
        if (!text.isEmpty() && Character.isLetter(text.charAt(text.length() - 1))) {
            char suffix = Character.toUpperCase(text.charAt(text.length() - 1));
            int power = SUFFIXES.indexOf(suffix);
            if (power < 0) {
                throw bad(value, option, "Unknown suffix '" + text.charAt(text.length() - 1) + "' used for variable '"
                        + option + "' (value '" + value + "'). Legal suffix characters are: K, M, G, T, P, E");
            }
            multiplier = 1L << (10 * (power + 1));
            text = text.substring(0, text.length() - 1);
        }
        long number;
        try {
            number = Math.multiplyExact(Long.parseLong(text), multiplier);
        } catch (NumberFormatException | ArithmeticException e) {
            throw bad(value, option, "Incorrect integer value: '" + value + "' for variable '" + option + "'");
        }
        if (number < min || number > max) {
            throw bad(value, option, String.format(Locale.ROOT, "Value %d for variable '%s' is out of range"
                    + " (expected: %d to %d)", number, option, min, max));
        }
        return number;
    }

    static double parseDouble(String value, String option) {
        try {
            double number = Double.parseDouble(value.strip());
            if (!(number > 0) || Double.isInfinite(number)) {
                throw new NumberFormatException();
            }
            return number;
        } catch (NumberFormatException e) {
            throw bad(value, option, "Incorrect value: '" + value + "' for variable '" + option
                    + "' (expected: a number > 0)");
        }
    }

    private static SlapException bad(String value, String option, String detail) {
        return new SlapException(detail + "\nslap: Error while setting value '" + value + "' to '" + option + "'",
                EXIT_BAD_VALUE);
    }
}
