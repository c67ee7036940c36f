package dev.sluice.proxy.sql;

import java.nio.charset.Charset;
import java.util.Arrays;

/**
 * The integer values an INSERT or REPLACE of literal rows could store, to tell an id the server
 * generated from one the statement gave. An insert's OK reports either alike (the first id
 * generated, else the value given to the AUTO_INCREMENT column), and only a generated one becomes
 * LAST_INSERT_ID(); an id that none of the statement's literals could have stored was generated.
 *
 * <p>Only statements whose rows are plain literals are read: integers, strings (stored as the
 * integer their leading digits spell, as the server converts them), NULL, DEFAULT, TRUE and FALSE.
 * Anything that could compute a value (an operator, a function, a variable, a placeholder, a
 * decimal or hex number, a subquery, INSERT ... SET or SELECT, ON DUPLICATE KEY UPDATE, adjacent
 * strings, a charset introducer) makes {@link #read} give null: the id may be the statement's.
 */
public final class InsertLiterals {

    /** A bulk insert beyond this many literals is not worth the array; its id counts as maybe given. */
    static final int MAX_LITERALS = 1024;

    /** TINYINT to BIGINT, signed and unsigned (BIGINT UNSIGNED's is not a positive long). */
    private static final long[] TYPE_MAXIMA = {127, 255, 32_767, 65_535, 8_388_607, 16_777_215, 2_147_483_647,
        4_294_967_295L, Long.MAX_VALUE};

    private final long[] sorted;

    private InsertLiterals(long[] values, int count) {
        this.sorted = Arrays.copyOf(values, count);
        Arrays.sort(sorted);
    }

    /**
     * Whether the statement could have given {@code id} itself: one of its literals has that value,
     * or {@code id} is the largest value of an integer type, where a larger literal is clipped
     * outside strict mode.
     */
    public boolean couldStore(long id) {
        return Arrays.binarySearch(sorted, id) >= 0 || Arrays.binarySearch(TYPE_MAXIMA, id) >= 0;
    }

    /** The literals of an INSERT or REPLACE text, or null when it is not one of literal rows only. */
    public static InsertLiterals read(byte[] sql, int offset, int length, Charset charset, SqlMode mode) {
        CharSequence text = ByteSqlText.readableInPlace(charset)
                ? new ByteSqlText().reset(sql, offset, length, charset)
                : new String(sql, offset, length, charset);
        return read(text, mode);
    }

    /** As {@link #read(byte[], int, int, Charset, SqlMode)}, for decoded text. */
    public static InsertLiterals read(CharSequence text, SqlMode mode) {
        SqlLexer lexer = new SqlLexer();
        // Executable comments are read as code: what they hold may run.
        lexer.reset(text, mode.noBackslashEscapes(), mode.ansiQuotes(), true);
        TokenType first = lexer.next();
        Keyword verb = first == TokenType.WORD ? Keyword.byId(wordId(text, lexer)) : null;
        if (verb != Keyword.INSERT && verb != Keyword.REPLACE) {
            return null;
        }
        if (!headUpToValues(text, lexer)) {
            return null;
        }
        long[] values = new long[8];
        int count = 0;
        int depth = 0;
        TokenType previous = null;
        for (TokenType t = lexer.next(); ; previous = t, t = lexer.next()) {
            if (lexer.unterminated()) {
                return null;
            }
            long value;
            switch (t) {
                case LEFT_PAREN -> {
                    depth++;
                    continue;
                }
                case RIGHT_PAREN -> {
                    if (--depth < 0) {
                        return null;
                    }
                    continue;
                }
                case COMMA -> {
                    continue;
                }
                case SEMICOLON, END -> {
                    return depth == 0 && (t == TokenType.END || lexer.next() == TokenType.END)
                            ? new InsertLiterals(values, count) : null;
                }
                case NUMBER -> value = integer(text, lexer.start(), lexer.end());
                case STRING -> value = previous == TokenType.STRING ? -1 : leadingInteger(text, lexer.start(), lexer.end());
                case WORD -> {
                    if (depth == 0) {
                        return null; // ON DUPLICATE KEY UPDATE, RETURNING...: not read
                    }
                    int id = wordId(text, lexer);
                    String word = id < 0 ? "" : KeywordTable.word(id);
                    if (word.equals("NULL") || word.equals("DEFAULT")) {
                        continue;
                    }
                    value = word.equals("TRUE") ? 1 : word.equals("FALSE") ? 0 : -1;
                }
                default -> value = -1;
            }
            if (value < 0 || depth == 0 || count == MAX_LITERALS) {
                return null;
            }
            if (count == values.length) {
                values = Arrays.copyOf(values, Math.min(values.length * 2, MAX_LITERALS));
            }
            values[count++] = value;
        }
    }

    /** Skips the head up to VALUES or VALUE: options, INTO, the table and its column list. */
    private static boolean headUpToValues(CharSequence text, SqlLexer lexer) {
        for (TokenType t = lexer.next(); t != TokenType.END; t = lexer.next()) {
            switch (t) {
                case WORD -> {
                    Keyword word = Keyword.byId(wordId(text, lexer));
                    if (word == Keyword.VALUES || word == Keyword.VALUE) {
                        return true;
                    }
                    if (word == Keyword.SET || word == Keyword.SELECT || word == Keyword.WITH || word == Keyword.TABLE) {
                        return false;
                    }
                }
                case QUOTED_IDENTIFIER, DOT, LEFT_PAREN, RIGHT_PAREN, COMMA -> {
                    // the table's name and its column list
                }
                default -> {
                    return false;
                }
            }
        }
        return false;
    }

    /** A decimal integer literal's value, or -1 (a fraction, an exponent, past 64 bits). */
    private static long integer(CharSequence text, int start, int end) {
        long value = 0;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (!SqlChars.isDigit(c)) {
                return -1;
            }
            value = appendDigit(value, c);
            if (value == -1) {
                return -1;
            }
        }
        return value;
    }

    /**
     * The integer a string literal stores into an integer column: its leading digits after
     * whitespace (none: 0). A sign, a fraction, an exponent, an escape or a prefix (N'...') gives -1,
     * as does a value past 64 bits.
     */
    private static long leadingInteger(CharSequence text, int start, int end) {
        char quote = text.charAt(start);
        if (quote != '\'') {
            return -1; // N'...', or "..." (a column under ANSI_QUOTES in some sessions)
        }
        int i = start + 1;
        int close = end - 1;
        while (i < close && SqlChars.isSpace(text.charAt(i))) {
            i++;
        }
        long value = 0;
        for (int from = i; i < close; i++) {
            char c = text.charAt(i);
            if (SqlChars.isDigit(c)) {
                value = appendDigit(value, c);
                if (value == -1) {
                    return -1;
                }
            } else {
                boolean exponent = (c == 'e' || c == 'E') && i > from;
                return exponent || c == '.' || c == '+' || c == '-' || c == '\\' || c == '\'' ? -1 : value;
            }
        }
        return value;
    }

    /** {@code value * 10 + digit}, or -1 past Long.MAX_VALUE (ids that large are asked about). */
    private static long appendDigit(long value, char digit) {
        if (value > (Long.MAX_VALUE - 9) / 10) {
            return -1;
        }
        return value * 10 + (digit - '0');
    }

    /** The keyword table's id of the word the lexer is on, or -1. */
    private static int wordId(CharSequence text, SqlLexer lexer) {
        return KeywordTable.lookup(text, lexer.start(), lexer.end(), lexer.wordHash());
    }
}
