package dev.sluice.slap;

/**
 * The value of {@code --number-int-cols} or {@code --number-char-cols}: {@code N[:I]}, N columns,
 * each with an {@code INDEX(col)} when I is given and not zero.
 */
public record ColumnSpec(int count, boolean indexed) {

    public static final ColumnSpec ONE = new ColumnSpec(1, false);

    public ColumnSpec {
        if (count < 0) {
            throw new IllegalArgumentException("column count: " + count + " (expected: >= 0)");
        }
    }

    /** Parses {@code N[:I]}; a bad value fails with mysqlslap's message for {@code optionName}. */
    public static ColumnSpec parse(String value, String optionName) {
        String text = value.strip();
        int colon = text.indexOf(':');
        String countText = colon < 0 ? text : text.substring(0, colon);
        String indexText = colon < 0 ? "0" : text.substring(colon + 1);
        try {
            int count = Integer.parseInt(countText.strip());
            int index = Integer.parseInt(indexText.strip());
            if (count < 0 || index < 0) {
                throw new NumberFormatException("negative");
            }
            return new ColumnSpec(count, index != 0);
        } catch (NumberFormatException e) {
            throw new SlapException("Invalid value specified for the option '" + optionName + "': '" + value
                    + "' (expected: N or N:I, non-negative integers)", 1);
        }
    }
}
