package dev.sluice.proxy.sql;

/** Case-insensitive comparison of a token's text with a word, for words {@link Keyword} does not list. */
final class SqlWords {

    private SqlWords() {
    }

    /** Whether {@code text[start, end)} spells {@code upper} (an upper-case ASCII word) in any case. */
    static boolean is(CharSequence text, int start, int end, String upper) {
        if (end - start != upper.length()) {
            return false;
        }
        for (int i = 0; i < upper.length(); i++) {
            char c = text.charAt(start + i);
            if ((c >= 'a' && c <= 'z' ? (char) (c - 32) : c) != upper.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code text[start, end)} spells one of {@code uppers}. */
    static boolean isAny(CharSequence text, int start, int end, String... uppers) {
        for (String upper : uppers) {
            if (is(text, start, end, upper)) {
                return true;
            }
        }
        return false;
    }
}
