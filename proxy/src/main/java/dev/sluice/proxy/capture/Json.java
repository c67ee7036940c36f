package dev.sluice.proxy.capture;

/** JSON text (RFC 8259) appended to a StringBuilder, without building intermediate strings. */
final class Json {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Json() {
    }

    /** A JSON string, or {@code null} for null. */
    static void string(StringBuilder out, CharSequence text) {
        if (text == null) {
            out.append("null");
            return;
        }
        out.append('"');
        int length = text.length();
        int plain = 0;
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\' && c < 0x2028 || c > 0x2029 && !Character.isSurrogate(c)) {
                continue;
            }
            if (Character.isSurrogate(c) && pairedAt(text, i)) {
                continue;
            }
            // Runs of characters that need no escape are copied at once.
            out.append(text, plain, i);
            plain = i + 1;
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                // Other control characters, U+2028/9 and lone surrogates (not valid UTF-8): escaped code units.
                default -> out.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 15]).append(HEX[(c >> 4) & 15])
                        .append(HEX[c & 15]);
            }
        }
        out.append(text, plain, length).append('"');
    }

    private static boolean pairedAt(CharSequence text, int i) {
        char c = text.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
    }

    /** {@code ,"name":} (without the comma for the first field). */
    static StringBuilder field(StringBuilder out, String name) {
        if (out.charAt(out.length() - 1) != '{') {
            out.append(',');
        }
        return out.append('"').append(name).append("\":");
    }
}
