package dev.sluice.slap;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.List;
import java.util.Map;

/**
 * Reads one JSON value (a capture line, a report, an admin API answer) with Jackson: objects become maps, arrays
 * lists, integers Long (BigInteger when too large), other numbers Double, plus String, Boolean and
 * null. A mistake is an IllegalArgumentException that gives the column and what Jackson found.
 */
public final class JsonText {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private JsonText() {
    }

    /**
     * Parses one JSON value that must fill {@code text}.
     *
     * @throws IllegalArgumentException naming the column and what was wrong there
     */
    public static Object parse(String text) {
        try {
            return longs(JSON.readValue(text, Object.class));
        } catch (JsonProcessingException e) {
            JsonLocation where = e.getLocation();
            String column = where == null || where.getColumnNr() < 0 ? "" : "column " + where.getColumnNr() + ": ";
            throw new IllegalArgumentException(column + firstLine(e.getOriginalMessage()), e);
        }
    }

    /**
     * Jackson gives Integer, Long or BigInteger by size (its Long-only mode fails past 2^63 - 1,
     * where captured unsigned BIGINTs go): Integers become Long, in place.
     */
    @SuppressWarnings("unchecked")
    private static Object longs(Object value) {
        switch (value) {
            case Integer small -> {
                return small.longValue();
            }
            case Map<?, ?> map -> ((Map<Object, Object>) map).replaceAll((key, item) -> longs(item));
            case List<?> list -> ((List<Object>) list).replaceAll(JsonText::longs);
            case null, default -> {
            }
        }
        return value;
    }

    /** {@code value} (maps, lists, numbers, text, booleans, null) as compact JSON text. */
    public static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static String firstLine(String message) {
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
