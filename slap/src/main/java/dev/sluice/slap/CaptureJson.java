package dev.sluice.slap;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader (RFC 8259) for capture lines: objects become maps, arrays lists, numbers
 * Long (BigInteger when too large, Double with a fraction or exponent), plus String, Boolean and
 * null. Errors say what was found where.
 */
public final class CaptureJson {

    private final String text;
    private int at;

    private CaptureJson(String text) {
        this.text = text;
    }

    /**
     * Parses one JSON value that must fill {@code text}.
     *
     * @throws IllegalArgumentException naming the column and what was expected
     */
    public static Object parse(String text) {
        CaptureJson reader = new CaptureJson(text);
        reader.space();
        Object value = reader.value();
        reader.space();
        if (reader.at < text.length()) {
            throw reader.error("end of the line");
        }
        return value;
    }

    private Object value() {
        if (at >= text.length()) {
            throw error("a value");
        }
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> word("true", Boolean.TRUE);
            case 'f' -> word("false", Boolean.FALSE);
            case 'n' -> word("null", null);
            default -> {
                if (c == '-' || c >= '0' && c <= '9') {
                    yield number();
                }
                throw error("a value");
            }
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> map = new LinkedHashMap<>();
        at++;
        space();
        if (peek('}')) {
            at++;
            return map;
        }
        while (true) {
            space();
            if (!peek('"')) {
                throw error("a field name in quotes");
            }
            String name = string();
            space();
            expect(':');
            space();
            map.put(name, value());
            space();
            if (peek(',')) {
                at++;
            } else {
                expect('}');
                return map;
            }
        }
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        at++;
        space();
        if (peek(']')) {
            at++;
            return list;
        }
        while (true) {
            space();
            list.add(value());
            space();
            if (peek(',')) {
                at++;
            } else {
                expect(']');
                return list;
            }
        }
    }

    private String string() {
        at++;
        StringBuilder out = new StringBuilder();
        while (true) {
            if (at >= text.length()) {
                throw error("the closing quote of a string");
            }
            char c = text.charAt(at++);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (at >= text.length()) {
                throw error("an escape after \\");
            }
            char e = text.charAt(at++);
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (at + 4 > text.length()) {
                        throw error("4 hex digits after \\u");
                    }
                    try {
                        out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    } catch (NumberFormatException ex) {
                        throw error("4 hex digits after \\u");
                    }
                    at += 4;
                }
                default -> {
                    at--;
                    throw error("one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u");
                }
            }
        }
    }

    private Object number() {
        int start = at;
        if (peek('-')) {
            at++;
        }
        digits();
        boolean whole = true;
        if (peek('.')) {
            at++;
            digits();
            whole = false;
        }
        if (peek('e') || peek('E')) {
            at++;
            if (peek('+') || peek('-')) {
                at++;
            }
            digits();
            whole = false;
        }
        String number = text.substring(start, at);
        if (!whole) {
            return Double.parseDouble(number);
        }
        BigInteger value = new BigDecimal(number).toBigIntegerExact();
        return value.bitLength() < 64 ? (Object) value.longValue() : value;
    }

    private void digits() {
        int start = at;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
            at++;
        }
        if (at == start) {
            throw error("a digit");
        }
    }

    private Object word(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw error("a value");
        }
        at += word.length();
        return value;
    }

    private void space() {
        while (at < text.length() && (text.charAt(at) == ' ' || text.charAt(at) == '\t' || text.charAt(at) == '\r'
                || text.charAt(at) == '\n')) {
            at++;
        }
    }

    private boolean peek(char c) {
        return at < text.length() && text.charAt(at) == c;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw error("'" + c + "'");
        }
        at++;
    }

    private IllegalArgumentException error(String expected) {
        String found = at >= text.length() ? "the end of the line"
                : "'" + text.substring(at, Math.min(text.length(), at + 20)) + "'";
        return new IllegalArgumentException("column " + (at + 1) + ": found " + found + " (expected: " + expected + ")");
    }
}
