package dev.sluice.proxy.sql;

/**
 * Writes the normalized form of SQL text, token by token, into a StringBuilder. The layout is a
 * function of the tokens alone, so any spacing, comments and keyword case give the same text:
 * one space between tokens, none inside parentheses, before {@code ,} {@code )} {@code ;}, around
 * {@code .}, or between a function name and its {@code (}.
 *
 * <p>Literals (numbers, strings, hex and bit values, with their sign or character set
 * introducer) become {@code ?}. A parenthesised list after IN that holds only literals and
 * placeholders (or tuples of them) becomes {@code (...)}. After VALUES, rows that normalize like
 * the first row are dropped and {@code , ...} marks that there were more.
 */
final class DigestWriter {
    private enum Last { NONE, OPEN, CLOSE, COMMA, DOT, SEMI, OPERATOR, KEYWORD, VALUE, CALLABLE }

    private enum Rows { NONE, EXPECT_ROW, ROW_KEYWORD, IN_ROW, AFTER_ROW }

    private final TokenStream s = new TokenStream();
    private StringBuilder out = new StringBuilder();
    private Last last;
    /** The keyword table id of the last unit when it was a keyword, else -1. */
    private int lastKeyword;
    private boolean lastLiteral;
    private int depth;
    private final LiteralLists lists = new LiteralLists();
    private Rows rows;
    private int rowsDepth;
    private int rowStart;
    private int row0Start;
    private int row0End;
    private int rowIndex;
    private int commaPos;
    private boolean collapsed;

    void normalize(CharSequence text, SqlMode mode, StringBuilder target) {
        out = target;
        s.reset(text, mode.noBackslashEscapes(), mode.ansiQuotes(), true);
        last = Last.NONE;
        lastKeyword = -1;
        lastLiteral = false;
        endStatement();
        while (s.type(0) != TokenType.END) {
            step();
        }
        endStatement();
        if (last == Last.SEMI) {
            out.setLength(out.length() - 1);
        }
    }

    private void step() {
        TokenType t = s.type(0);
        if (rows == Rows.EXPECT_ROW && t != TokenType.LEFT_PAREN && !(s.is(0, Keyword.ROW) && depth == rowsDepth)) {
            rows = Rows.NONE;
        } else if (rows == Rows.AFTER_ROW) {
            afterRow(t);
        }
        switch (t) {
            case SEMICOLON -> {
                endStatement();
                if (last != Last.NONE && last != Last.SEMI) {
                    emit(";", Last.SEMI);
                }
            }
            case NUMBER, STRING, HEX_NUMBER, BIT_NUMBER, PLACEHOLDER -> literal();
            case OPERATOR -> operator();
            case ASSIGN -> {
                emit(":=", Last.OPERATOR);
                lists.other();
            }
            case WORD -> word();
            case QUOTED_IDENTIFIER -> quotedIdentifier();
            case USER_VARIABLE, SYSTEM_VARIABLE -> variable();
            case LEFT_PAREN -> open();
            case RIGHT_PAREN -> close();
            case COMMA -> emit(",", Last.COMMA);
            case DOT -> emit(".", Last.DOT);
            case END -> { }
        }
        s.advance();
    }

    private void literal() {
        emit("?", Last.VALUE);
        lastLiteral = true;
        lists.literal();
    }

    private void operator() {
        boolean sign = s.isOperator(0, '-') || s.isOperator(0, '+');
        TokenType next = s.type(1);
        boolean number = next == TokenType.NUMBER || next == TokenType.HEX_NUMBER || next == TokenType.BIT_NUMBER;
        boolean unary = last == Last.NONE || last == Last.OPEN || last == Last.COMMA || last == Last.SEMI
                || last == Last.OPERATOR || last == Last.KEYWORD;
        if (sign && number && unary) {
            s.advance();
            literal();
            return;
        }
        emitRange(s.start(0), s.end(0), Last.OPERATOR);
        lists.other();
    }

    private void word() {
        int id = s.keywordId(0);
        int flags = KeywordTable.flags(id);
        if ((flags & KeywordTable.INTRODUCER) != 0) {
            TokenType next = s.type(1);
            if (next == TokenType.STRING || next == TokenType.HEX_NUMBER || next == TokenType.BIT_NUMBER) {
                s.advance();
                literal();
                return;
            }
        }
        if ((flags & KeywordTable.KEYWORD) == 0 || !keywordHere(flags)) {
            emitRange(s.start(0), s.end(0), Last.CALLABLE);
            lists.other();
            return;
        }
        Last kind = (flags & KeywordTable.FUNCTION) != 0 ? Last.CALLABLE
                : (flags & (KeywordTable.RESERVED | KeywordTable.VALUE)) == KeywordTable.RESERVED ? Last.KEYWORD
                : Last.VALUE;
        int at = emit(KeywordTable.word(id), kind);
        lastKeyword = id;
        lists.other();
        if ((s.is(0, Keyword.VALUES) || s.is(0, Keyword.VALUE)) && rows == Rows.NONE) {
            rows = Rows.EXPECT_ROW;
            rowsDepth = depth;
            rowIndex = 0;
            collapsed = false;
        } else if (rows == Rows.EXPECT_ROW && s.is(0, Keyword.ROW)) {
            rows = Rows.ROW_KEYWORD;
            rowStart = at;
        }
    }

    /**
     * Whether a word on the keyword lists is used as a keyword here. Reserved words always are;
     * built-in function names and clause words are before {@code (} ({@code VALUE (1)}). Other keywords may be names ({@code name},
     * {@code status}, {@code types}), so they count as keywords only at the start of a statement
     * or right after a keyword or literal ({@code SHOW STATUS}, {@code SET autocommit},
     * {@code INTERVAL 1 DAY}), and never where a table name or alias stands ({@code FROM types},
     * {@code AS new}, next to a dot). Names are kept as written: table names can be case-sensitive.
     */
    private boolean keywordHere(int flags) {
        if ((flags & KeywordTable.RESERVED) != 0) {
            return true;
        }
        if ((flags & (KeywordTable.FUNCTION | KeywordTable.STRUCTURAL)) != 0 && s.type(1) == TokenType.LEFT_PAREN) {
            return true;
        }
        boolean tableName = last == Last.KEYWORD && (lastKeyword == Keyword.FROM.ordinal()
                || lastKeyword == Keyword.JOIN.ordinal() || lastKeyword == Keyword.INTO.ordinal()
                || lastKeyword == Keyword.UPDATE.ordinal() || lastKeyword == Keyword.TABLE.ordinal()
                || (lastKeyword == Keyword.AS.ordinal() && (flags & KeywordTable.FUNCTION) == 0));
        if (tableName || last == Last.DOT || s.type(1) == TokenType.DOT) {
            return false;
        }
        return last == Last.NONE || last == Last.SEMI || lastKeyword >= 0 || lastLiteral;
    }

    /** {@code `t1`} becomes {@code t1} unless the quotes are needed (keyword, odd characters). */
    private void quotedIdentifier() {
        int start = s.start(0);
        int end = s.end(0);
        boolean plain = end - start > 2 && KeywordTable.lookup(s.text(), start + 1, end - 1) < 0;
        boolean digitsOnly = true;
        for (int i = start + 1; plain && i < end - 1; i++) {
            char c = s.text().charAt(i);
            plain = SqlChars.isIdentChar(c);
            digitsOnly &= SqlChars.isDigit(c);
        }
        if (plain && !digitsOnly) {
            emitRange(start + 1, end - 1, Last.CALLABLE);
        } else {
            emitRange(start, end, Last.CALLABLE);
        }
        lists.other();
    }

    /** Variable names are case-insensitive: unquoted ones are written lower-case. */
    private void variable() {
        int start = s.start(0);
        int end = s.end(0);
        CharSequence text = s.text();
        boolean user = s.type(0) == TokenType.USER_VARIABLE;
        boolean quoted = user && end - start > 1 && !SqlChars.isIdentChar(text.charAt(start + 1))
                && text.charAt(start + 1) != '.';
        TokenType prev = s.prevType();
        if (user && !s.spaceBefore(0) && (prev == TokenType.STRING || prev == TokenType.QUOTED_IDENTIFIER
                || (prev == TokenType.WORD && s.prevKeywordId() < 0))) {
            // the host of 'user'@'host': a literal when quoted
            if (quoted) {
                out.append("@?");
            } else {
                emitGlued(start, end);
            }
            last = Last.VALUE;
            return;
        }
        int at = emitRange(start, end, Last.VALUE);
        if (!quoted) {
            for (int i = at; i < out.length(); i++) {
                char c = out.charAt(i);
                if (c >= 'A' && c <= 'Z') {
                    out.setCharAt(i, (char) (c + 32));
                }
            }
        }
        lists.other();
    }

    private void open() {
        boolean inList = lastKeyword == Keyword.IN.ordinal() && last == Last.KEYWORD;
        int at = emit("(", Last.OPEN);
        if (rows == Rows.EXPECT_ROW && depth == rowsDepth) {
            rowStart = at;
            rows = Rows.IN_ROW;
        } else if (rows == Rows.ROW_KEYWORD) {
            rows = Rows.IN_ROW;
        }
        lists.push(at, inList);
        depth++;
    }

    private void close() {
        if (depth > 0) {
            depth--;
        }
        emit(")", Last.CLOSE);
        lists.close(out);
        if (rows == Rows.IN_ROW && depth == rowsDepth) {
            rowEnd();
        }
    }

    private void rowEnd() {
        int length = out.length() - rowStart;
        if (rowIndex == 0) {
            row0Start = rowStart;
            row0End = out.length();
        } else if (length == row0End - row0Start && sameText(rowStart, row0Start, length)) {
            out.setLength(commaPos);
            collapsed = true;
            last = Last.CLOSE;
        }
        rowIndex++;
        rows = Rows.AFTER_ROW;
    }

    private void afterRow(TokenType t) {
        if (t == TokenType.COMMA && depth == rowsDepth
                && (s.type(1) == TokenType.LEFT_PAREN || s.is(1, Keyword.ROW))) {
            commaPos = out.length();
            rows = Rows.EXPECT_ROW;
        } else {
            finishRows();
        }
    }

    private void finishRows() {
        if (collapsed) {
            out.append(", ...");
            last = Last.VALUE;
        }
        collapsed = false;
        rows = Rows.NONE;
    }

    private void endStatement() {
        if (rows == Rows.AFTER_ROW) {
            finishRows();
        }
        rows = Rows.NONE;
        lists.clear();
        depth = 0;
    }

    private boolean sameText(int a, int b, int length) {
        for (int i = 0; i < length; i++) {
            if (out.charAt(a + i) != out.charAt(b + i)) {
                return false;
            }
        }
        return true;
    }

    private int emit(String text, Last kind) {
        space(kind);
        int at = out.length();
        out.append(text);
        last = kind;
        lastKeyword = -1;
        lastLiteral = false;
        return at;
    }

    private int emitRange(int start, int end, Last kind) {
        space(kind);
        int at = out.length();
        CharSequence text = s.text();
        if (text instanceof ByteSqlText bytes) {
            bytes.appendTo(out, start, end);
        } else {
            out.append(text, start, end);
        }
        last = kind;
        lastKeyword = -1;
        lastLiteral = false;
        return at;
    }

    private void emitGlued(int start, int end) {
        Last before = last;
        last = Last.DOT;
        emitRange(start, end, Last.VALUE);
        last = before;
    }

    private void space(Last kind) {
        if (kind == Last.CLOSE || kind == Last.COMMA || kind == Last.DOT || kind == Last.SEMI) {
            return;
        }
        if (last == Last.NONE || last == Last.OPEN || last == Last.DOT) {
            return;
        }
        if (kind == Last.OPEN && last == Last.CALLABLE) {
            return;
        }
        out.append(' ');
    }
}
