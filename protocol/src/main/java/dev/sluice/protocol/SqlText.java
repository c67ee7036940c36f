package dev.sluice.protocol;

/** What scanning SQL text outside its strings and quoted names needs, shared by the scanners. */
public final class SqlText {

    private SqlText() {
    }

    /**
     * The index after the quote that closes the one at {@code start} ({@code '}, {@code "} or a
     * backquote): a doubled quote escapes one, and so does a backslash except in a quoted name.
     * Unclosed, the text's length.
     */
    public static int endOfQuoted(String sql, int start, char quote) {
        int i = start + 1;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\\' && quote != '`') {
                i += 2;
            } else if (c == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return sql.length();
    }
}
