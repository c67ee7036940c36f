package dev.sluice.proxy.sql;

import java.nio.charset.Charset;
import java.util.Locale;
import java.util.Objects;

/**
 * A {@code KILL [HARD | SOFT] [CONNECTION | QUERY] thread_id} statement, in MariaDB's syntax
 * (MySQL's is the part without HARD and SOFT). Clients take the id from the greeting: Connector/J
 * cancels a statement or enforces a query timeout with {@code KILL QUERY id} on a second
 * connection, the mariadb client does so on Ctrl-C. Read with the lexer, so comments, case and
 * a trailing {@code ;} do not hide one.
 *
 * @param form     whether the proxy could read the thread id
 * @param modifier {@code "HARD "}, {@code "SOFT "} or {@code ""}, ready to go after {@code KILL }
 * @param query    KILL QUERY: the statement, not the connection
 * @param threadId the id as written ({@link Long#MAX_VALUE} for larger numbers, as MariaDB
 *                 reports them); -1 unless {@code form} is {@link Form#THREAD}
 */
public record KillStatement(Form form, String modifier, boolean query, long threadId) {

    /** How much of the statement the proxy can act on. */
    public enum Form {
        /** A literal thread id. */
        THREAD,
        /** The id is an expression, a variable or a string: only the server could work it out. */
        EXPRESSION,
        /** A KILL among other statements in one text (multi-statements). */
        AMONG_OTHERS
    }

    public KillStatement {
        Objects.requireNonNull(form, "form");
        Objects.requireNonNull(modifier, "modifier");
    }

    /**
     * The KILL of a thread that {@code sql} is or contains; null when there is none (no KILL,
     * or {@code KILL USER} and {@code KILL QUERY ID}, which name no thread).
     */
    public static KillStatement find(CharSequence sql, SqlMode mode) {
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(mode, "mode");
        TokenStream s = new TokenStream();
        s.reset(sql, mode.noBackslashEscapes(), mode.ansiQuotes(), true);
        return find(s);
    }

    /** As {@link #find(CharSequence, SqlMode)}, for text given as bytes. */
    public static KillStatement find(byte[] sql, int offset, int length, Charset charset, SqlMode mode) {
        Objects.checkFromIndexSize(offset, length, sql.length);
        if (!ByteSqlText.readableInPlace(charset)) {
            return find(new String(sql, offset, length, charset), mode);
        }
        return find(new ByteSqlText().reset(sql, offset, length, charset), mode);
    }

    private static KillStatement find(TokenStream s) {
        KillStatement kill = null;
        int statements = 0;
        boolean statementStart = true;
        while (s.type(0) != TokenType.END) {
            if (s.type(0) == TokenType.SEMICOLON) {
                statementStart = true;
                s.advance();
                continue;
            }
            if (statementStart) {
                statements++;
                if (s.is(0, Keyword.KILL)) {
                    s.advance();
                    KillStatement found = afterKill(s);
                    kill = kill == null ? found : kill;
                    statementStart = false;
                    continue;
                }
            }
            statementStart = false;
            s.advance();
        }
        if (kill != null && statements > 1) {
            return new KillStatement(Form.AMONG_OTHERS, kill.modifier, kill.query, -1);
        }
        return kill;
    }

    /** Reads what follows KILL, up to the end of the statement. */
    private static KillStatement afterKill(TokenStream s) {
        String modifier = "";
        if (isWord(s, "HARD") || isWord(s, "SOFT")) {
            modifier = s.string(0).toUpperCase(Locale.ROOT) + " ";
            s.advance();
        }
        boolean query = false;
        if (s.is(0, Keyword.CONNECTION)) {
            s.advance();
        } else if (isWord(s, "QUERY")) {
            query = true;
            s.advance();
            if (isWord(s, "ID")) {
                return null;
            }
        } else if (s.is(0, Keyword.USER)) {
            return null;
        }
        long id = s.type(0) == TokenType.NUMBER && digitsOnly(s) && ends(s.type(1)) ? parse(s) : -1;
        while (!ends(s.type(0))) {
            s.advance();
        }
        return new KillStatement(id < 0 ? Form.EXPRESSION : Form.THREAD, modifier, query, id);
    }

    private static boolean ends(TokenType type) {
        return type == TokenType.END || type == TokenType.SEMICOLON;
    }

    private static boolean isWord(TokenStream s, String upper) {
        return s.type(0) == TokenType.WORD && SqlWords.is(s.text(), s.start(0), s.end(0), upper);
    }

    private static boolean digitsOnly(TokenStream s) {
        CharSequence text = s.text();
        for (int i = s.start(0); i < s.end(0); i++) {
            if (!SqlChars.isDigit(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static long parse(TokenStream s) {
        CharSequence text = s.text();
        long value = 0;
        for (int i = s.start(0); i < s.end(0); i++) {
            int digit = text.charAt(i) - '0';
            if (value > (Long.MAX_VALUE - digit) / 10) {
                return Long.MAX_VALUE;
            }
            value = value * 10 + digit;
        }
        return value;
    }
}
