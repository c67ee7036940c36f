package dev.sluice.proxy.admin;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The admin API's JSON, written by Jackson: maps, lists, strings, numbers, booleans and null.
 * Numbers that are not finite are written as null, as JSON has no NaN (an average over no
 * statements, a rate over no time).
 */
public final class Json {

    private static final ObjectMapper WRITER = JsonMapper.builder()
            .addModule(new SimpleModule().addSerializer(Double.class, new FiniteOrNull()))
            .build();

    private Json() {
    }

    public static String write(Object value) {
        try {
            return WRITER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("not JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * {@code text} cut to at most {@code max} characters, ending in "..." when cut, never between
     * the two halves of a surrogate pair (which no UTF-8 encoder can write).
     */
    public static String shorten(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int end = max - 3;
        if (Character.isLowSurrogate(text.charAt(end))) {
            end--;
        }
        return text.substring(0, end) + "...";
    }

    /** A table as an array of objects, one per row, keys in column order. */
    public static List<Map<String, Object>> rows(Table table) {
        return table.rows().stream().map(row -> {
            Map<String, Object> object = new LinkedHashMap<>();
            for (int i = 0; i < table.columns().size(); i++) {
                object.put(table.columns().get(i).name(), row.get(i));
            }
            return object;
        }).toList();
    }

    private static final class FiniteOrNull extends StdSerializer<Double> {

        FiniteOrNull() {
            super(Double.class);
        }

        @Override
        public void serialize(Double value, JsonGenerator out, SerializerProvider provider) throws IOException {
            if (value.isNaN() || value.isInfinite()) {
                out.writeNull();
            } else {
                out.writeNumber(value);
            }
        }
    }
}
