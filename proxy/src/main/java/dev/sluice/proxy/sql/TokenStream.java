package dev.sluice.proxy.sql;

/**
 * The lexer's tokens with a look-ahead of three and a memory of the one before, each WORD
 * already looked up in the {@link KeywordTable}. Position 0 is the current token.
 */
final class TokenStream {
    private static final int WINDOW = 4;

    private final SqlLexer lexer = new SqlLexer();
    private final TokenType[] types = new TokenType[WINDOW];
    private final int[] starts = new int[WINDOW];
    private final int[] ends = new int[WINDOW];
    private final int[] keywords = new int[WINDOW];
    private final boolean[] spaces = new boolean[WINDOW];
    private CharSequence text = "";
    private int head;
    private TokenType prevType;
    private int prevKeyword;

    void reset(CharSequence text, boolean noBackslashEscapes, boolean ansiQuotes, boolean versionedAsCode) {
        this.text = text;
        lexer.reset(text, noBackslashEscapes, ansiQuotes, versionedAsCode);
        head = 0;
        for (int slot = 0; slot < WINDOW; slot++) {
            fill(slot);
        }
        prevType = null;
        prevKeyword = -1;
    }

    /** Moves to the next token. At the end the current token stays END. */
    void advance() {
        prevType = types[head];
        prevKeyword = keywords[head];
        fill(head);
        head = (head + 1) & (WINDOW - 1);
    }

    private void fill(int slot) {
        TokenType t = lexer.next();
        types[slot] = t;
        starts[slot] = lexer.start();
        ends[slot] = lexer.end();
        spaces[slot] = lexer.spaceBefore();
        keywords[slot] = t == TokenType.WORD
                ? KeywordTable.lookup(text, lexer.start(), lexer.end(), lexer.wordHash()) : -1;
    }

    private int slot(int ahead) {
        return (head + ahead) & (WINDOW - 1);
    }

    CharSequence text() {
        return text;
    }

    TokenType type(int ahead) {
        return types[slot(ahead)];
    }

    int start(int ahead) {
        return starts[slot(ahead)];
    }

    int end(int ahead) {
        return ends[slot(ahead)];
    }

    boolean spaceBefore(int ahead) {
        return spaces[slot(ahead)];
    }

    /** The keyword table id of a WORD, or -1. */
    int keywordId(int ahead) {
        return keywords[slot(ahead)];
    }

    /** The {@link Keyword} a WORD spells, or null. */
    Keyword keyword(int ahead) {
        return Keyword.byId(keywords[slot(ahead)]);
    }

    boolean is(int ahead, Keyword k) {
        return keywords[slot(ahead)] == k.ordinal();
    }

    /** Whether the token is the one-character operator {@code c}. */
    boolean isOperator(int ahead, char c) {
        int s = slot(ahead);
        return types[s] == TokenType.OPERATOR && ends[s] - starts[s] == 1 && text.charAt(starts[s]) == c;
    }

    TokenType prevType() {
        return prevType;
    }

    int prevKeywordId() {
        return prevKeyword;
    }

    boolean prevIs(Keyword k) {
        return prevKeyword == k.ordinal();
    }

    /** The text of a token as a String (decoded when the text is bytes). */
    String string(int ahead) {
        return text.subSequence(start(ahead), end(ahead)).toString();
    }

    boolean unterminated() {
        return lexer.unterminated();
    }

    boolean backslashInQuote() {
        return lexer.backslashInQuote();
    }

    boolean versionedComment() {
        return lexer.versionedComment();
    }

    RoutingHint hint() {
        int hints = lexer.hints();
        if ((hints & CommentSkipper.HINT_PRIMARY) != 0) {
            return RoutingHint.PRIMARY;
        }
        return (hints & CommentSkipper.HINT_REPLICA) != 0 ? RoutingHint.REPLICA : RoutingHint.NONE;
    }
}
