package dev.sluice.proxy.sql;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Makes {@code CONNECTION_ID()} answer the id the proxy greeted the client with, not the backend
 * connection's thread id: each call outside strings and comments becomes that number. A call that
 * is a whole select item without an alias becomes {@code CAST(id AS UNSIGNED) AS `CONNECTION_ID()`},
 * spelled as the client wrote it, so the column keeps the name and the type (INT UNSIGNED NOT
 * NULL, which drivers map to a long) that the server gives it.
 *
 * <p>Left alone, so still the backend thread's id: calls in strings ({@code PREPARE s FROM '...'},
 * {@code EXECUTE IMMEDIATE}); everything from a statement that begins with CREATE or ALTER on
 * (stored programs, views, triggers and events keep their text as written and call the function
 * when they run); calls qualified with a schema (a stored function of that name); and a text that
 * also names something answering with backend thread ids ({@code IS_USED_LOCK()}, the PROCESSLIST
 * tables, thread id columns), so that {@code IS_USED_LOCK('l') = CONNECTION_ID()} or
 * {@code WHERE ID = CONNECTION_ID()} on PROCESSLIST compare like with like. A call inside a
 * larger select item ({@code CONNECTION_ID() + 0}) is replaced, and that column is named after
 * the rewritten text. Where a backslash inside quotes makes the end of a string depend on the
 * sql_mode, only the calls outside strings in both readings are replaced.
 */
public final class ConnectionIdRewriter {

    /** Words after which a select list has ended at its own depth. */
    private static final String[] AFTER_SELECT_LIST = {
        "FROM", "INTO", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "WINDOW", "UNION", "EXCEPT", "INTERSECT",
        "FOR", "LOCK", "PROCEDURE"};
    /** SELECT options: a select item right after one starts the list. */
    private static final String[] SELECT_OPTIONS = {
        "ALL", "DISTINCT", "DISTINCTROW", "HIGH_PRIORITY", "STRAIGHT_JOIN", "SQL_SMALL_RESULT", "SQL_BIG_RESULT",
        "SQL_BUFFER_RESULT", "SQL_CACHE", "SQL_NO_CACHE", "SQL_CALC_FOUND_ROWS"};
    /**
     * Names of what answers with backend thread ids: a text naming one compares them with
     * CONNECTION_ID(), most likely, and is left as written.
     */
    private static final String[] BACKEND_THREAD_IDS = {
        "IS_USED_LOCK", "PROCESSLIST", "PROCESSLIST_ID", "THREAD_ID", "TRX_MYSQL_THREAD_ID", "BLOCKING_PID",
        "WAITING_PID"};
    /** Select lists deeper than this many parentheses are not told apart (a call there keeps no column name). */
    private static final int MAX_DEPTH = 63;

    /** One call: the text {@code [start, end)} from the name to the closing parenthesis. */
    private record Call(int start, int end, boolean selectItem) {
    }

    private ConnectionIdRewriter() {
    }

    /** {@code sql} with the calls replaced by {@code id}, or null when it has none to replace. */
    public static String rewrite(String sql, long id, SqlMode mode) {
        List<Call> calls = calls(sql, mode);
        if (calls.isEmpty()) {
            return null;
        }
        StringBuilder out = new StringBuilder(sql.length() + 32 * calls.size());
        int copied = 0;
        for (Call call : calls) {
            out.append(sql, copied, call.start());
            if (!call.selectItem()) {
                out.append(id);
            } else {
                out.append("CAST(").append(id).append(" AS UNSIGNED) AS `")
                        .append(sql.substring(call.start(), call.end()).replace("`", "``")).append('`');
            }
            copied = call.end();
        }
        return out.append(sql, copied, sql.length()).toString();
    }

    /**
     * As {@link #rewrite(String, long, SqlMode)} for text given as bytes in {@code charset}: the
     * new text in the same charset, or null when there is nothing to replace.
     */
    public static byte[] rewrite(byte[] sql, int offset, int length, Charset charset, SqlMode mode, long id) {
        Objects.checkFromIndexSize(offset, length, sql.length);
        if (!ByteSqlText.readableInPlace(charset)) {
            String text = new String(sql, offset, length, charset);
            String rewritten = rewrite(text, id, mode);
            return rewritten == null ? null : rewritten.getBytes(charset);
        }
        List<Call> calls = calls(new ByteSqlText().reset(sql, offset, length, charset), mode);
        if (calls.isEmpty()) {
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(length + 32 * calls.size());
        byte[] number = ascii(Long.toString(id));
        int copied = 0;
        for (Call call : calls) {
            out.write(sql, offset + copied, call.start() - copied);
            if (!call.selectItem()) {
                out.writeBytes(number);
            } else {
                out.writeBytes(ascii("CAST(" + id + " AS UNSIGNED) AS `"));
                for (int i = call.start(); i < call.end(); i++) {
                    byte b = sql[offset + i];
                    out.write(b);
                    if (b == '`') {
                        out.write(b);
                    }
                }
                out.write('`');
            }
            copied = call.end();
        }
        out.write(sql, offset + copied, length - copied);
        return out.toByteArray();
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static List<Call> calls(CharSequence text, SqlMode mode) {
        TokenStream s = new TokenStream();
        List<Call> calls = calls(s, text, mode.noBackslashEscapes(), mode.ansiQuotes());
        if (calls == null) {
            return List.of();
        }
        if (calls.isEmpty() || !s.backslashInQuote()) {
            return calls;
        }
        List<Call> otherReading = calls(s, text, !mode.noBackslashEscapes(), mode.ansiQuotes());
        if (otherReading == null) {
            return List.of();
        }
        calls.retainAll(otherReading);
        return calls;
    }

    /** The calls in one reading of the text; null when the text also reads backend thread ids. */
    private static List<Call> calls(TokenStream s, CharSequence text, boolean noBackslashEscapes, boolean ansiQuotes) {
        s.reset(text, noBackslashEscapes, ansiQuotes, true);
        List<Call> calls = new ArrayList<>();
        long selectLists = 0;
        int depth = 0;
        boolean statementStart = true;
        boolean itemStart = false;
        for (; s.type(0) != TokenType.END; s.advance()) {
            TokenType type = s.type(0);
            boolean wasItemStart = itemStart;
            itemStart = false;
            switch (type) {
                case SEMICOLON -> {
                    depth = 0;
                    selectLists = 0;
                    statementStart = true;
                    continue;
                }
                case LEFT_PAREN -> {
                    depth = Math.min(depth + 1, MAX_DEPTH);
                    selectLists &= ~(1L << depth);
                }
                case RIGHT_PAREN -> {
                    selectLists &= ~(1L << depth);
                    depth = Math.max(depth - 1, 0);
                }
                case COMMA -> itemStart = (selectLists & (1L << depth)) != 0;
                case WORD, QUOTED_IDENTIFIER -> {
                    if (names(s, BACKEND_THREAD_IDS)) {
                        return null;
                    }
                    if (type == TokenType.QUOTED_IDENTIFIER) {
                        break;
                    }
                    if (statementStart && (s.is(0, Keyword.CREATE) || s.is(0, Keyword.ALTER))) {
                        return calls;
                    }
                    if (s.is(0, Keyword.SELECT)) {
                        selectLists |= 1L << depth;
                        itemStart = true;
                    } else if (isCall(s)) {
                        boolean selectItem = wasItemStart && endsItem(s, 3);
                        calls.add(new Call(s.start(0), s.end(2), selectItem));
                        s.advance();
                        s.advance();
                    } else if (wasItemStart && isAny(s, 0, SELECT_OPTIONS)) {
                        itemStart = true;
                    } else if (isAny(s, 0, AFTER_SELECT_LIST)) {
                        selectLists &= ~(1L << depth);
                    }
                }
                default -> {
                }
            }
            statementStart = false;
        }
        return calls;
    }

    /** {@code CONNECTION_ID()}, not {@code schema.CONNECTION_ID()}. */
    private static boolean isCall(TokenStream s) {
        return s.is(0, Keyword.CONNECTION_ID) && s.type(1) == TokenType.LEFT_PAREN && s.type(2) == TokenType.RIGHT_PAREN
                && s.prevType() != TokenType.DOT;
    }

    /** Whether the token {@code ahead} ends a select item that has no alias. */
    private static boolean endsItem(TokenStream s, int ahead) {
        return switch (s.type(ahead)) {
            case END, SEMICOLON, COMMA, RIGHT_PAREN -> true;
            case WORD -> isAny(s, ahead, AFTER_SELECT_LIST);
            default -> false;
        };
    }

    /** Whether the current word or quoted identifier ({@code `PROCESSLIST`}) is one of {@code words}. */
    private static boolean names(TokenStream s, String[] words) {
        int start = s.start(0);
        int end = s.end(0);
        if (s.type(0) == TokenType.QUOTED_IDENTIFIER) {
            start++;
            end--;
        }
        return end > start && SqlWords.isAny(s.text(), start, end, words);
    }

    private static boolean isAny(TokenStream s, int ahead, String[] words) {
        return s.type(ahead) == TokenType.WORD && SqlWords.isAny(s.text(), s.start(ahead), s.end(ahead), words);
    }
}
