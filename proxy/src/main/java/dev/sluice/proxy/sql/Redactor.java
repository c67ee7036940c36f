package dev.sluice.proxy.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Replaces passwords in SQL text with {@code '***'} before it is captured or logged:
 * <ul>
 * <li>after IDENTIFIED, the literal after BY, AS or USING, after BY PASSWORD, and inside
 *     PASSWORD(...) (CREATE USER, ALTER USER, GRANT, MySQL's IDENTIFIED WITH plugin BY/AS,
 *     MariaDB's IDENTIFIED VIA plugin USING, several authentication factors alike);</li>
 * <li>SET PASSWORD [FOR user] = 'x' / = PASSWORD('x') / = OLD_PASSWORD('x');</li>
 * <li>REPLACE 'current' in ALTER USER and SET PASSWORD (MySQL's current-password check);</li>
 * <li>the literal after MASTER_PASSWORD or SOURCE_PASSWORD [=] (CHANGE MASTER TO, CHANGE
 *     REPLICATION SOURCE TO);</li>
 * <li>the literal after PASSWORD [=] in statements that begin with CREATE, ALTER, GRANT, SET,
 *     START or CHANGE (START REPLICA ... PASSWORD='x', CREATE SERVER ... OPTIONS (PASSWORD 'x'));
 *     a column called password in DML is left alone;</li>
 * <li>the first argument of PASSWORD() and OLD_PASSWORD() anywhere;</li>
 * <li>and, in any statement that mentions PASSWORD or IDENTIFIED anywhere (in a string or a
 *     comment too), every string, hex and bit literal: the rules above cannot see a secret inside
 *     the text of a PREPARE or an EXECUTE IMMEDIATE, or one that CONCAT() builds.</li>
 * </ul>
 * A character set introducer stays ({@code _utf8mb4'***'}). Where the sql_mode could move the
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
        if (mentionsSecret(sql)) {
            everyLiteral(s, sql, ranges);
        } else {
            new SecretFinder(s, ranges).run();
        }
    }

    /**
     * A statement whose text mentions a password anywhere, in a string or a comment too, may carry
     * one where no rule looks (a PREPARE or EXECUTE IMMEDIATE of text that holds IDENTIFIED BY,
     * PASSWORD(CONCAT('a', 'b'))): every literal goes. A secret set into a variable by an earlier
     * statement that does not say what it is for cannot be told from any other value.
     */
    static boolean mentionsSecret(String sql) {
        return contains(sql, "password") || contains(sql, "identified");
    }

    private static boolean contains(String text, String lowerCaseWord) {
        int last = text.length() - lowerCaseWord.length();
        for (int i = 0; i <= last; i++) {
            if (text.regionMatches(true, i, lowerCaseWord, 0, lowerCaseWord.length())) {
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
                if (mentionsSecret(sql.substring(statementStart, statementEnd))) {
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
