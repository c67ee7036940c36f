package dev.sluice.proxy.capture;

/**
 * Finds the {@code ?} placeholders of a prepared statement's text: those outside quoted strings,
 * quoted identifiers and comments (an executable comment {@code /*! ... *}{@code /} is code, so
 * its placeholders count).
 */
final class Placeholders {

    /** What to put where each placeholder stood. */
    interface Filler {
        void fill(StringBuilder out, int index);
    }

    private Placeholders() {
    }

    /** The text with each placeholder replaced, or null when it has not exactly {@code count} of them. */
    static String expand(String sql, int count, Filler filler) {
        StringBuilder out = new StringBuilder(sql.length() + 16 * count);
        int found = 0;
        int copied = 0;
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = endOfQuoted(sql, i, c);
            } else if (c == '#' || c == '-' && i + 2 < n && sql.charAt(i + 1) == '-' && sql.charAt(i + 2) <= ' ') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*' && !(i + 2 < n && sql.charAt(i + 2) == '!')) {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (c == '?') {
                if (found == count) {
                    return null;
                }
                out.append(sql, copied, i);
                filler.fill(out, found++);
                copied = ++i;
            } else {
                i++;
            }
        }
        if (found != count) {
            return null;
        }
        return out.append(sql, copied, n).toString();
    }

    /** The index after the quote that closes the one at {@code start} (a doubled quote or a backslash escapes). */
    private static int endOfQuoted(String sql, int start, char quote) {
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
