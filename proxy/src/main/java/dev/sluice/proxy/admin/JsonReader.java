package dev.sluice.proxy.admin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The recursive-descent reader behind {@link Json#parse}. */
final class JsonReader {

    private final String text;
    private int at;

    JsonReader(String text) {
        this.text = text;
    }

    Object value() {
        skipSpace();
        if (at >= text.length()) {
            throw problem("the end", "a value");
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
                if (c == '-' || Character.isDigit(c)) {
                    yield number();
                }
                throw problem("'" + c + "'", "a value");
            }
        };
    }

    void end() {
        skipSpace();
        if (at < text.length()) {
            throw problem("'" + text.charAt(at) + "'", "the end");
        }
    }

    private Map<String, Object> object() {
        Map<String, Object> object = new LinkedHashMap<>();
        at++;
        skipSpace();
        if (peek() == '}') {
            at++;
            return object;
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw problem(found(), "a key in double quotes");
            }
            String key = string();
            skipSpace();
            expect(':');
            object.put(key, value());
            skipSpace();
            if (peek() == ',') {
                at++;
            } else {
                expect('}');
                return object;
            }
        }
    }

    private List<Object> array() {
        List<Object> array = new ArrayList<>();
        at++;
        skipSpace();
        if (peek() == ']') {
            at++;
            return array;
        }
        while (true) {
            array.add(value());
            skipSpace();
            if (peek() == ',') {
                at++;
            } else {
                expect(']');
                return array;
            }
        }
    }

    private String string() {
        StringBuilder out = new StringBuilder();
        at++;
        while (true) {
            if (at >= text.length()) {
                throw problem("the end", "a closing '\"'");
            }
            char c = text.charAt(at++);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char escaped = at < text.length() ? text.charAt(at++) : '?';
            switch (escaped) {
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    if (at + 4 > text.length()) {
                        throw problem("the end", "4 hex digits");
                    }
                    out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    at += 4;
                }
                default -> out.append(escaped);
            }
        }
    }

    private Object number() {
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        String digits = text.substring(start, at);
        try {
            if (digits.contains(".") || digits.contains("e") || digits.contains("E")) {
                return Double.parseDouble(digits);
            }
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw problem("\"" + digits + "\"", "a number");
        }
    }

    private Object word(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw problem(found(), word);
        }
        at += word.length();
        return value;
    }

    private void expect(char c) {
        if (peek() != c) {
            throw problem(found(), "'" + c + "'");
        }
        at++;
    }

    private char peek() {
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private String found() {
        return at < text.length() ? "'" + text.charAt(at) + "'" : "the end";
    }

    private void skipSpace() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private IllegalArgumentException problem(String found, String expected) {
        return new IllegalArgumentException("JSON: found " + found + " at offset " + at + " (expected: " + expected + ")");
    }
}
