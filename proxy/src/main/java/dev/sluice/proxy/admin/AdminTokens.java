package dev.sluice.proxy.admin;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits an admin statement into tokens: words (keywords and names, backquotes removed), strings
 * (single or double quotes, doubled quotes and backslash escapes), numbers, and symbols. Comments
 * ({@code /* *}{@code /}, {@code -- }, {@code #}) are skipped, as the mariadb client may send them.
 */
final class AdminTokens {

    enum Kind { WORD, QUOTED_NAME, STRING, NUMBER, SYMBOL, END }

    record Token(Kind kind, String text, int position) {
        boolean is(String word) {
            return (kind == Kind.WORD || kind == Kind.SYMBOL) && text.equalsIgnoreCase(word);
        }

        boolean isName() {
            return kind == Kind.WORD || kind == Kind.QUOTED_NAME;
        }

        @Override
        public String toString() {
            return kind == Kind.END ? "the end" : kind == Kind.STRING ? "'" + text + "'" : "\"" + text + "\"";
        }
    }

    private final String sql;
    private final List<Token> tokens;
    private int next;

    AdminTokens(String sql) {
        this.sql = sql;
        this.tokens = tokenize(sql);
    }

    /** The statement's text from the next token on. */
    String remainingText() {
        return sql.substring(peek().position());
    }

    Token peek() {
        return tokens.get(next);
    }

    Token take() {
        Token token = tokens.get(next);
        if (token.kind() != Kind.END) {
            next++;
        }
        return token;
    }

    /** Takes the token when it is {@code word}. */
    boolean accept(String word) {
        if (peek().is(word)) {
            next++;
            return true;
        }
        return false;
    }

    void expect(String word) {
        Token token = take();
        if (!token.is(word)) {
            throw AdminSqlException.syntax("found " + token + " where " + word.toUpperCase(Locale.ROOT) + " was expected");
        }
    }

    String name(String what) {
        Token token = take();
        if (!token.isName()) {
            throw AdminSqlException.syntax("found " + token + " where " + what + " was expected");
        }
        return token.text();
    }

    boolean atEnd() {
        while (peek().is(";")) {
            next++;
        }
        return peek().kind() == Kind.END;
    }

    void expectEnd() {
        if (!atEnd()) {
            throw AdminSqlException.syntax("unexpected " + peek() + " at position " + peek().position());
        }
    }

    private static List<Token> tokenize(String sql) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '#' || (c == '-' && sql.startsWith("-- ", i))) {
                while (i < n && sql.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (c == '\'' || c == '"' || c == '`') {
                int start = i;
                StringBuilder text = new StringBuilder();
                i++;
                while (true) {
                    if (i >= n) {
                        throw AdminSqlException.syntax("unterminated " + c + " at position " + start);
                    }
                    char d = sql.charAt(i);
                    if (d == c && i + 1 < n && sql.charAt(i + 1) == c) {
                        text.append(c);
                        i += 2;
                    } else if (d == c) {
                        i++;
                        break;
                    } else if (d == '\\' && c != '`' && i + 1 < n) {
                        text.append(sql.charAt(i + 1));
                        i += 2;
                    } else {
                        text.append(d);
                        i++;
                    }
                }
                out.add(new Token(c == '`' ? Kind.QUOTED_NAME : Kind.STRING, text.toString(), start));
            } else if (Character.isDigit(c) || (c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1)))) {
                int start = i;
                while (i < n && (Character.isDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
                    i++;
                }
                out.add(new Token(Kind.NUMBER, sql.substring(start, i), start));
            } else if (Character.isLetter(c) || c == '_' || c == '@' || c == '$') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || "_@$.".indexOf(sql.charAt(i)) >= 0)) {
                    i++;
                }
                out.add(new Token(Kind.WORD, sql.substring(start, i), start));
            } else {
                int start = i;
                String two = i + 1 < n ? sql.substring(i, i + 2) : "";
                if (two.equals("<=") || two.equals(">=") || two.equals("<>") || two.equals("!=")) {
                    out.add(new Token(Kind.SYMBOL, two, start));
                    i += 2;
                } else {
                    out.add(new Token(Kind.SYMBOL, String.valueOf(c), start));
                    i++;
                }
            }
        }
        out.add(new Token(Kind.END, "", n));
        return out;
    }
}
