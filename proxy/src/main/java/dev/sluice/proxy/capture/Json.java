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
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    // Control characters and lone surrogates (not valid UTF-8) are escaped.
                    if (c < 0x20 || c == 0x2028 || c == 0x2029 || Character.isSurrogate(c) && !pairedAt(text, i)) {
                        out.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 15]).append(HEX[(c >> 4) & 15])
                                .append(HEX[c & 15]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
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
