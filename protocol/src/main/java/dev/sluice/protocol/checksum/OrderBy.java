package dev.sluice.protocol.checksum;

import dev.sluice.protocol.SqlText;

/**
 * Whether a statement's rows come in an order it asked for: an {@code ORDER BY} outside all
 * parentheses (a subquery's or a window's ORDER BY orders nothing the client sees), outside
 * strings, quoted names and comments. Without one, two servers may return the same rows in any
 * order, and a comparison must not call that a difference.
 */
public final class OrderBy {

    private OrderBy() {
    }

    public static boolean atTopLevel(String sql) {
        if (sql == null) {
            return false;
        }
        int depth = 0;
        boolean afterOrder = false;
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = SqlText.endOfQuoted(sql, i, c);
            } else if (c == '#' || (c == '-' && sql.startsWith("-- ", i)) || (c == '-' && sql.startsWith("--\n", i))) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (c == '/' && sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (c == '(') {
                depth++;
                afterOrder = false;
                i++;
            } else if (c == ')') {
                depth = Math.max(0, depth - 1);
                afterOrder = false;
                i++;
            } else if (Character.isLetter(c) || c == '_' || c == '$' || Character.isDigit(c)) {
                int end = i;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_'
                        || sql.charAt(end) == '$')) {
                    end++;
                }
                String word = sql.substring(i, end);
                if (depth == 0 && afterOrder && word.equalsIgnoreCase("BY")) {
                    return true;
                }
                afterOrder = depth == 0 && word.equalsIgnoreCase("ORDER");
                i = end;
            } else {
                if (!Character.isWhitespace(c)) {
                    afterOrder = false;
                }
                i++;
            }
        }
        return false;
    }
}
