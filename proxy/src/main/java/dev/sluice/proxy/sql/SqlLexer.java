package dev.sluice.proxy.sql;

/**
 * Splits MySQL/MariaDB SQL text into tokens, one per {@link #next()} call, without allocating.
 * Strings take backslash escapes unless NO_BACKSLASH_ESCAPES, and doubled quotes always;
 * identifiers may start with digits; trailing NUL bytes (mysqlslap sends one) and whitespace are
 * ignored; comments are {@link CommentSkipper}'s business.
 *
 * <p>Besides tokens it records what only the whole text can tell: a routing hint in a comment,
 * a string, identifier or comment left open, a backslash inside quotes (whose meaning depends
 * on the session's sql_mode) and a version-gated executable comment (code for some servers, a
 * comment for others).
 */
final class SqlLexer {
    /** {@link #wordHash()} of a word that cannot be a keyword (not ASCII). */
    static final int NO_HASH = -1;

    private final CommentSkipper comments = new CommentSkipper();
    private CharSequence text = "";
    private int pos;
    private int limit;
    private boolean backslashEscapes;
    private boolean ansiQuotes;

    private int start;
    private int end;
    private boolean spaceBefore;
    private TokenType last;
    private int wordHash;

    private boolean unterminated;
    private boolean backslashInQuote;

    /** @param versionedAsCode see {@link CommentSkipper#reset} */
    void reset(CharSequence text, boolean noBackslashEscapes, boolean ansiQuotes, boolean versionedAsCode) {
        this.text = text;
        int n = text.length();
        while (n > 0 && (text.charAt(n - 1) == 0 || SqlChars.isSpace(text.charAt(n - 1)))) {
            n--;
        }
        this.limit = n;
        this.pos = 0;
        this.backslashEscapes = !noBackslashEscapes;
        this.ansiQuotes = ansiQuotes;
        comments.reset(text, n, versionedAsCode);
        this.start = 0;
        this.end = 0;
        this.spaceBefore = false;
        this.last = null;
        this.unterminated = false;
        this.backslashInQuote = false;
    }

    TokenType next() {
        int from = pos;
        pos = comments.skip(from);
        spaceBefore = pos != from;
        start = pos;
        if (pos >= limit) {
            end = limit;
            return last = TokenType.END;
        }
        char c = text.charAt(pos);
        TokenType t = switch (c) {
            case '\'' -> quoted(pos, '\'', backslashEscapes, TokenType.STRING);
            case '"' -> ansiQuotes
                    ? quoted(pos, '"', false, TokenType.QUOTED_IDENTIFIER)
                    : quoted(pos, '"', backslashEscapes, TokenType.STRING);
            case '`' -> quoted(pos, '`', false, TokenType.QUOTED_IDENTIFIER);
            case '(' -> fixed(1, TokenType.LEFT_PAREN);
            case ')' -> fixed(1, TokenType.RIGHT_PAREN);
            case ',' -> fixed(1, TokenType.COMMA);
            case ';' -> fixed(1, TokenType.SEMICOLON);
            case '?' -> fixed(1, TokenType.PLACEHOLDER);
            case '@' -> variable();
            case ':' -> charAt(pos + 1) == '=' ? fixed(2, TokenType.ASSIGN) : fixed(1, TokenType.OPERATOR);
            case '.' -> SqlChars.isDigit(charAt(pos + 1)) && !followsName() ? number() : fixed(1, TokenType.DOT);
            default -> {
                if (SqlChars.isDigit(c)) {
                    yield number();
                }
                if (SqlChars.isIdentChar(c)) {
                    yield word(c);
                }
                yield operator(c);
            }
        };
        return last = t;
    }

    int start() {
        return start;
    }

    int end() {
        return end;
    }

    /** For a WORD, {@link KeywordTable#hashOf} of its upper-case spelling, or {@link #NO_HASH}. */
    int wordHash() {
        return wordHash;
    }

    /** Whether whitespace or a comment stood between this token and the one before. */
    boolean spaceBefore() {
        return spaceBefore;
    }

    boolean unterminated() {
        return unterminated || comments.unterminated();
    }

    boolean backslashInQuote() {
        return backslashInQuote;
    }

    boolean versionedComment() {
        return comments.versionedComment();
    }

    /** {@link CommentSkipper#HINT_PRIMARY} and/or {@link CommentSkipper#HINT_REPLICA}. */
    int hints() {
        return comments.hints();
    }

    /** A quoted token whose opening quote is at {@code open}; the token starts at {@link #start}. */
    private TokenType quoted(int open, char quote, boolean escapes, TokenType type) {
        int p = open + 1;
        while (p < limit) {
            char c = text.charAt(p);
            if (c == quote) {
                if (p + 1 < limit && text.charAt(p + 1) == quote) {
                    p += 2;
                    continue;
                }
                pos = end = p + 1;
                return type;
            }
            if (c == '\\' && quote != '`') {
                backslashInQuote = true;
                if (escapes) {
                    p += 2;
                    continue;
                }
            }
            p++;
        }
        unterminated = true;
        pos = end = limit;
        return type;
    }

    private TokenType fixed(int length, TokenType type) {
        pos = end = pos + length;
        return type;
    }

    private TokenType number() {
        int p = pos;
        if (text.charAt(p) == '0') {
            char x = charAt(p + 1);
            if (x == 'x' || x == 'X') {
                return prefixed(p + 2, 16, TokenType.HEX_NUMBER);
            }
            if (x == 'b' || x == 'B') {
                return prefixed(p + 2, 2, TokenType.BIT_NUMBER);
            }
        }
        boolean integer = true;
        p = digits(p);
        if (charAt(p) == '.') {
            p = digits(p + 1);
            integer = false;
        }
        char e = charAt(p);
        if (e == 'e' || e == 'E') {
            int q = p + 1;
            if (charAt(q) == '+' || charAt(q) == '-') {
                q++;
            }
            if (SqlChars.isDigit(charAt(q))) {
                p = digits(q);
                integer = false;
            }
        }
        if (integer && p < limit && SqlChars.isIdentChar(text.charAt(p))) {
            return identifier();
        }
        pos = end = p;
        return TokenType.NUMBER;
    }

    private TokenType prefixed(int from, int radix, TokenType type) {
        int p = from;
        while (p < limit && text.charAt(p) < 0x80 && Character.digit(text.charAt(p), radix) >= 0) {
            p++;
        }
        if (p == from || (p < limit && SqlChars.isIdentChar(text.charAt(p)))) {
            return identifier();
        }
        pos = end = p;
        return type;
    }

    private int digits(int from) {
        int p = from;
        while (p < limit && SqlChars.isDigit(text.charAt(p))) {
            p++;
        }
        return p;
    }

    private TokenType word(char c) {
        if (charAt(pos + 1) == '\'') {
            switch (c) {
                case 'x', 'X' -> {
                    return quoted(pos + 1, '\'', false, TokenType.HEX_NUMBER);
                }
                case 'b', 'B' -> {
                    return quoted(pos + 1, '\'', false, TokenType.BIT_NUMBER);
                }
                case 'n', 'N' -> {
                    return quoted(pos + 1, '\'', backslashEscapes, TokenType.STRING);
                }
                default -> { }
            }
        }
        return identifier();
    }

    /** Scans a word and hashes it on the way, so the keyword lookup needs no second pass. */
    private TokenType identifier() {
        int p = pos;
        int h = 0;
        boolean ascii = true;
        while (p < limit) {
            char c = text.charAt(p);
            if (c >= 0x80) {
                ascii = false;
            } else if (SqlChars.isAsciiIdentChar(c)) {
                h = h * 31 + (c >= 'a' && c <= 'z' ? c - 32 : c);
            } else {
                break;
            }
            p++;
        }
        wordHash = ascii ? h : NO_HASH;
        pos = end = p;
        return TokenType.WORD;
    }

    private TokenType variable() {
        int p = pos + 1;
        if (charAt(p) == '@') {
            int q = namePart(p + 1);
            if (q < 0) {
                return fixed(2, TokenType.OPERATOR);
            }
            while (charAt(q) == '.') {
                int r = namePart(q + 1);
                if (r < 0) {
                    break;
                }
                q = r;
            }
            pos = end = q;
            return TokenType.SYSTEM_VARIABLE;
        }
        char c = charAt(p);
        if (c == '\'' || c == '"' || c == '`') {
            return quoted(p, c, c != '`' && backslashEscapes, TokenType.USER_VARIABLE);
        }
        int q = p;
        while (q < limit && (SqlChars.isIdentChar(text.charAt(q)) || text.charAt(q) == '.')) {
            q++;
        }
        if (q == p) {
            return fixed(1, TokenType.OPERATOR);
        }
        pos = end = q;
        return TokenType.USER_VARIABLE;
    }

    /** The end of one part of a system variable name starting at {@code from}, or -1. */
    private int namePart(int from) {
        if (from >= limit) {
            return -1;
        }
        if (text.charAt(from) == '`') {
            quoted(from, '`', false, TokenType.QUOTED_IDENTIFIER);
            return end;
        }
        int p = from;
        while (p < limit && SqlChars.isIdentChar(text.charAt(p))) {
            p++;
        }
        return p == from ? -1 : p;
    }

    private TokenType operator(char c) {
        char n = charAt(pos + 1);
        int length = switch (c) {
            case '<' -> n == '=' ? (charAt(pos + 2) == '>' ? 3 : 2) : (n == '>' || n == '<') ? 2 : 1;
            case '>' -> n == '=' || n == '>' ? 2 : 1;
            case '!' -> n == '=' ? 2 : 1;
            case '&' -> n == '&' ? 2 : 1;
            case '|' -> n == '|' ? 2 : 1;
            case '-' -> n == '>' ? (charAt(pos + 2) == '>' ? 3 : 2) : 1;
            default -> 1;
        };
        return fixed(length, TokenType.OPERATOR);
    }

    /** {@code t.5col}: after a name with nothing between, a dot separates name parts. */
    private boolean followsName() {
        return !spaceBefore && (last == TokenType.WORD || last == TokenType.QUOTED_IDENTIFIER);
    }

    private char charAt(int i) {
        return i < limit ? text.charAt(i) : 0;
    }
}
