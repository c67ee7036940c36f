package dev.sluice.proxy.admin;

import java.util.List;
import java.util.Map;

/**
 * A small JSON writer for the admin API: maps, lists, strings, numbers, booleans and null.
 * Numbers that are not finite are written as null, as JSON has no NaN. Readers ({@code sluice
 * stats}, the tests) use Jackson.
 */
public final class Json {

    private Json() {
    }

    public static String write(Object value) {
        StringBuilder out = new StringBuilder(256);
        write(out, value);
        return out.toString();
    }

    /** A table as an array of objects, one per row, keys in column order. */
    public static List<Map<String, Object>> rows(Table table) {
        return table.rows().stream().map(row -> {
            Map<String, Object> object = new java.util.LinkedHashMap<>();
            for (int i = 0; i < table.columns().size(); i++) {
                object.put(table.columns().get(i).name(), row.get(i));
            }
            return object;
        }).toList();
    }

    private static void write(StringBuilder out, Object value) {
        switch (value) {
            case null -> out.append("null");
            case String text -> string(out, text);
            case Boolean bool -> out.append(bool);
            case Double number -> out.append(number.isNaN() || number.isInfinite() ? "null" : number.toString());
            case Float number -> write(out, number.doubleValue());
            case Number number -> out.append(number);
            case Map<?, ?> map -> {
                out.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    string(out, String.valueOf(entry.getKey()));
                    out.append(':');
                    write(out, entry.getValue());
                }
                out.append('}');
            }
            case Iterable<?> items -> {
                out.append('[');
                boolean first = true;
                for (Object item : items) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    write(out, item);
                }
                out.append(']');
            }
            default -> string(out, value.toString());
        }
    }

    private static void string(StringBuilder out, String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
