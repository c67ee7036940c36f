package dev.sluice.proxy.sql;

/**
 * Skips whitespace and comments between tokens. {@code --} starts a comment only before
 * whitespace, a control character or the end of the text; {@code #} always does. The contents
 * of {@code /*!} and {@code /*!NNNNN} (MySQL, MariaDB) and {@code /*M!} (MariaDB) comments are
 * code: only their markers are skipped. Records routing hints found in comments, comments left
 * open, and whether a version-gated executable comment was seen.
 */
final class CommentSkipper {
    static final int HINT_PRIMARY = 1;
    static final int HINT_REPLICA = 2;
    private static final int HINT_LENGTH = "sluice:primary".length();

    private CharSequence text = "";
    private int limit;
    private boolean versionedAsCode;
    private boolean inExecutable;
    private boolean unterminated;
    private boolean versionedComment;
    private int hints;

    /**
     * @param versionedAsCode whether version-gated executable comments ({@code /*!50100},
     *     {@code /*M!}) are read as code (as the newest server does) or as comments
     */
    void reset(CharSequence text, int limit, boolean versionedAsCode) {
        this.text = text;
        this.limit = limit;
        this.versionedAsCode = versionedAsCode;
        inExecutable = false;
        unterminated = false;
        versionedComment = false;
        hints = 0;
    }

    /** The position of the next token at or after {@code from}. */
    int skip(int from) {
        int pos = from;
        while (pos < limit) {
            char c = text.charAt(pos);
            if (SqlChars.isSpace(c)) {
                pos++;
                continue;
            }
            if (c > '/') {
                break; // no comment starts with a character above '/'
            }
            char n = charAt(pos + 1);
            if (c == '#') {
                pos = lineComment(pos + 1);
            } else if (c == '-' && n == '-' && (pos + 2 >= limit || SqlChars.isControlOrSpace(text.charAt(pos + 2)))) {
                pos = lineComment(pos + 2);
            } else if (c == '/' && n == '*') {
                pos = blockComment(pos);
            } else if (c == '*' && n == '/' && inExecutable) {
                pos += 2;
                inExecutable = false;
            } else {
                break;
            }
        }
        return pos;
    }

    /** Inside an executable comment at the end of the text means it was never closed. */
    boolean unterminated() {
        return unterminated || inExecutable;
    }

    boolean versionedComment() {
        return versionedComment;
    }

    int hints() {
        return hints;
    }

    private int lineComment(int body) {
        int p = body;
        while (p < limit && text.charAt(p) != '\n') {
            p++;
        }
        scanHints(body, p);
        return p;
    }

    private int blockComment(int open) {
        int body = open + 2;
        char k = charAt(body);
        boolean mariaDb = k == 'M' && charAt(body + 1) == '!';
        if (k == '!' || mariaDb) {
            int code = body + (mariaDb ? 2 : 1);
            int digits = 0;
            while (digits < 6 && SqlChars.isDigit(charAt(code + digits))) {
                digits++;
            }
            if (digits < 5) {
                digits = 0;
            }
            boolean versioned = mariaDb || digits > 0;
            versionedComment |= versioned;
            if (!versioned || versionedAsCode) {
                inExecutable = true;
                return code + digits;
            }
        }
        int p = body;
        while (p + 1 < limit && !(text.charAt(p) == '*' && text.charAt(p + 1) == '/')) {
            p++;
        }
        boolean closed = p + 1 < limit;
        if (k != '!' && !mariaDb) {
            scanHints(body, closed ? p : limit);
        }
        unterminated |= !closed;
        return closed ? p + 2 : limit;
    }

    /** Finds {@code sluice:primary} / {@code sluice:replica} as a word in a comment body. */
    private void scanHints(int from, int to) {
        for (int p = from; p + HINT_LENGTH <= to; p++) {
            if ((p > from && SqlChars.isIdentChar(text.charAt(p - 1))) || !matches(p, "sluice:")) {
                continue;
            }
            int word = p + 7;
            boolean boundary = word + 7 == to || !SqlChars.isIdentChar(text.charAt(word + 7));
            if (boundary && matches(word, "primary")) {
                hints |= HINT_PRIMARY;
            } else if (boundary && matches(word, "replica")) {
                hints |= HINT_REPLICA;
            }
        }
    }

    private boolean matches(int at, String lowerWord) {
        for (int i = 0; i < lowerWord.length(); i++) {
            char c = text.charAt(at + i);
            char w = lowerWord.charAt(i);
            if (c != w && !(w >= 'a' && w <= 'z' && c == w - 32)) {
                return false;
            }
        }
        return true;
    }

    private char charAt(int i) {
        return i < limit ? text.charAt(i) : 0;
    }
}
