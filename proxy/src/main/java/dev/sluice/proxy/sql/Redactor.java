package dev.sluice.proxy.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Replaces passwords in SQL text with {@code '***'} before it is captured or logged: in every
 * statement (between semicolons) whose text mentions PASSWORD or IDENTIFIED anywhere, in a string
 * or a comment too, every string, hex and bit literal. Every place a statement carries a password
 * (IDENTIFIED BY / AS / USING, SET PASSWORD, PASSWORD(), MASTER_PASSWORD, SOURCE_PASSWORD, REPLACE
 * 'current', CREATE SERVER ... PASSWORD) names one of the two words, and rules that looked only
 * there could not see a secret inside the text of a PREPARE or an EXECUTE IMMEDIATE, or one that
 * CONCAT() builds. A secret put into a variable by an earlier statement that does not say what it
 * is for cannot be told from any other value.
 *
 * <p>A character set introducer stays ({@code _utf8mb4'***'}). Where the sql_mode could move the
 * end of a string (a backslash inside quotes) or a version-gated comment could be code, every
 * reading is redacted. Text without secrets comes back as the same instance.
 */
public final class Redactor {
    private static final String MASK = "'***'";

    private Redactor() {
    }

    public static String redact(String sql) {
        return redact(sql, SqlMode.DEFAULT);
    }

    /** @throws NullPointerException when {@code sql} or {@code mode} is null */
    public static String redact(String sql, SqlMode mode) {
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(mode, "mode");
        if (!mentionsSecret(sql)) {
            return sql;
        }
        TokenStream s = new TokenStream();
        List<int[]> ranges = new ArrayList<>();
        find(s, sql, mode, false, true, ranges);
        boolean backslash = s.backslashInQuote();
        boolean versioned = s.versionedComment();
        if (backslash) {
            find(s, sql, mode, true, true, ranges);
        }
        if (versioned) {
            find(s, sql, mode, false, false, ranges);
        }
        if (backslash && versioned) {
            find(s, sql, mode, true, false, ranges);
        }
        return ranges.isEmpty() ? sql : mask(sql, ranges);
    }

    private static void find(TokenStream s, String sql, SqlMode mode, boolean flipEscapes, boolean versionedAsCode,
            List<int[]> ranges) {
        s.reset(sql, mode.noBackslashEscapes() ^ flipEscapes, mode.ansiQuotes(), versionedAsCode);
        everyLiteral(s, sql, ranges);
    }

    /** Whether {@code sql} says PASSWORD or IDENTIFIED anywhere, in any case: what has secrets to mask. */
    public static boolean mentionsSecret(String sql) {
        return mentionsSecret(sql, 0, sql.length());
    }

    private static boolean mentionsSecret(String text, int from, int to) {
        for (int i = from; i + 8 <= to; i++) {
            char c = text.charAt(i);
            if ((c == 'p' || c == 'P') && text.regionMatches(true, i, "password", 0, 8)
                    || (c == 'i' || c == 'I') && i + 10 <= to && text.regionMatches(true, i, "identified", 0, 10)) {
                return true;
            }
        }
        return false;
    }

    /** Every literal of each statement (between semicolons) whose text mentions a password. */
    private static void everyLiteral(TokenStream s, String sql, List<int[]> ranges) {
        List<int[]> literals = new ArrayList<>();
        int statementStart = 0;
        for (; ; s.advance()) {
            TokenType t = s.type(0);
            if (t == TokenType.SEMICOLON || t == TokenType.END) {
                int statementEnd = t == TokenType.END ? sql.length() : s.start(0);
                if (mentionsSecret(sql, statementStart, statementEnd)) {
                    ranges.addAll(literals);
                }
                literals.clear();
                statementStart = statementEnd;
                if (t == TokenType.END) {
                    return;
                }
            } else if (t == TokenType.STRING || t == TokenType.HEX_NUMBER || t == TokenType.BIT_NUMBER) {
                literals.add(new int[] {s.start(0), s.end(0)});
            }
        }
    }

    private static String mask(String sql, List<int[]> ranges) {
        ranges.sort((a, b) -> Integer.compare(a[0], b[0]));
        StringBuilder out = new StringBuilder(sql.length());
        int copied = 0;
        int i = 0;
        while (i < ranges.size()) {
            int start = ranges.get(i)[0];
            int end = ranges.get(i)[1];
            for (i++; i < ranges.size() && ranges.get(i)[0] < end; i++) {
                end = Math.max(end, ranges.get(i)[1]);
            }
            out.append(sql, copied, start).append(MASK);
            copied = end;
        }
        return out.append(sql, copied, sql.length()).toString();
    }
}
