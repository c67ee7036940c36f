package dev.sluice.proxy.sql;

/** Character classes of MySQL/MariaDB SQL text, as the server's lexer sees them. */
final class SqlChars {
    private static final boolean[] IDENT = new boolean[128];

    static {
        for (char c = 0; c < 128; c++) {
            IDENT[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
                    || c == '$';
        }
    }

    private SqlChars() {
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** Letters, digits, {@code _}, {@code $} and everything from U+0080 up (as bytes of UTF-8, too). */
    static boolean isIdentChar(char c) {
        return c >= 0x80 || IDENT[c];
    }

    /** An ASCII identifier character. */
    static boolean isAsciiIdentChar(char c) {
        return c < 0x80 && IDENT[c];
    }

    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0B;
    }

    /** What may follow {@code --} for it to start a comment: whitespace or a control character. */
    static boolean isControlOrSpace(char c) {
        return c <= ' ' || c == 0x7F;
    }
}
