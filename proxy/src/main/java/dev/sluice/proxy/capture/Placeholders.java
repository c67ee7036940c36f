package dev.sluice.proxy.capture;

import dev.sluice.protocol.SqlText;

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
                i = SqlText.endOfQuoted(sql, i, c);
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
}
