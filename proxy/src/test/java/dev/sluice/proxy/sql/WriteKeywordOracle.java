package dev.sluice.proxy.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * An independent judge for the robustness test: removes quoted text and comments (keeping the
 * contents of executable comments, which are code), then looks for a write keyword as a bare
 * word. Deliberately written without the production lexer.
 */
final class WriteKeywordOracle {
    private static final Set<String> WRITE_WORDS = Set.of("INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP",
            "ALTER", "TRUNCATE", "RENAME", "GRANT", "REVOKE", "LOAD", "CALL", "LOCK", "UNLOCK", "INTO", "SET");

    private WriteKeywordOracle() {
    }

    /**
     * The first write keyword outside quotes and comments, or null. Not counted: a word after
     * {@code .} or {@code @} (a name), before {@code (} (INSERT(), REPLACE() are functions), SET in
     * CHARACTER SET and in MariaDB's SET STATEMENT ... FOR wrapper, CREATE in SHOW CREATE.
     */
    static String find(String sql, boolean noBackslashEscapes, boolean ansiQuotes) {
        String code = strip(sql, noBackslashEscapes, ansiQuotes);
        List<int[]> words = new ArrayList<>();
        for (int i = 0; i < code.length(); ) {
            if (!isWordChar(code.charAt(i))) {
                i++;
                continue;
            }
            int start = i;
            while (i < code.length() && isWordChar(code.charAt(i))) {
                i++;
            }
            words.add(new int[] {start, i});
        }
        for (int w = 0; w < words.size(); w++) {
            String word = word(code, words.get(w));
            String previous = w > 0 ? word(code, words.get(w - 1)) : "";
            String following = w + 1 < words.size() ? word(code, words.get(w + 1)) : "";
            int start = words.get(w)[0];
            int next = words.get(w)[1];
            char before = start > 0 ? code.charAt(start - 1) : ' ';
            while (next < code.length() && code.charAt(next) == ' ') {
                next++;
            }
            boolean call = next < code.length() && code.charAt(next) == '(';
            boolean exempt = before == '.' || before == '@' || call
                    || (word.equals("SET") && (previous.equals("CHARACTER") || following.equals("STATEMENT")))
                    || (word.equals("CREATE") && previous.equals("SHOW"));
            if (WRITE_WORDS.contains(word) && !exempt) {
                return word;
            }
        }
        return null;
    }

    private static String word(String code, int[] range) {
        return code.substring(range[0], range[1]).toUpperCase(Locale.ROOT);
    }

    /** The text with quoted parts and comments replaced by single spaces. */
    private static String strip(String sql, boolean noBackslashEscapes, boolean ansiQuotes) {
        StringBuilder code = new StringBuilder();
        int n = sql.length();
        boolean executable = false;
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            char next = i + 1 < n ? sql.charAt(i + 1) : 0;
            if (c == '\'' || c == '"' || c == '`') {
                boolean identifier = c == '`' || (c == '"' && ansiQuotes);
                i = skipQuoted(sql, i, !identifier && !noBackslashEscapes);
                code.append(' ');
            } else if (c == '#' || (c == '-' && next == '-' && (i + 2 >= n || sql.charAt(i + 2) <= ' '
                    || sql.charAt(i + 2) == 0x7F))) {
                while (i < n && sql.charAt(i) != '\n') {
                    i++;
                }
                code.append(' ');
            } else if (c == '/' && next == '*') {
                int body = i + 2;
                if (body < n && sql.charAt(body) == '!') {
                    i = skipVersion(sql, body + 1);
                    executable = true;
                } else if (body + 1 < n && sql.charAt(body) == 'M' && sql.charAt(body + 1) == '!') {
                    i = skipVersion(sql, body + 2);
                    executable = true;
                } else {
                    int end = sql.indexOf("*/", body);
                    i = end < 0 ? n : end + 2;
                }
                code.append(' ');
            } else if (c == '*' && next == '/' && executable) {
                executable = false;
                i += 2;
                code.append(' ');
            } else {
                code.append(c);
                i++;
            }
        }
        return code.toString();
    }

    private static int skipQuoted(String sql, int open, boolean escapes) {
        char quote = sql.charAt(open);
        int i = open + 1;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (escapes && c == '\\') {
                i += 2;
            } else if (c == quote && i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                i += 2;
            } else if (c == quote) {
                return i + 1;
            } else {
                i++;
            }
        }
        return sql.length();
    }

    private static int skipVersion(String sql, int from) {
        int digits = 0;
        while (digits < 6 && from + digits < sql.length() && Character.isDigit(sql.charAt(from + digits))
                && sql.charAt(from + digits) < 0x80) {
            digits++;
        }
        return from + (digits >= 5 ? digits : 0);
    }

    private static boolean isWordChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$'
                || c >= 0x80;
    }
}
