package dev.sluice.slap;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/**
 * One line of a jsonl capture ({@code sluice proxy --capture}): a statement as the proxy saw it.
 *
 * @param timeMicros   its start, in microseconds since the epoch
 * @param command      MySQL's name of the command: {@code Query}, {@code Prepare}, {@code Execute},
 *                     {@code Close stmt}, {@code Init DB}, {@code Ping}, ...
 * @param statementId  the prepared statement's id for Prepare, Execute and Close stmt; -1 otherwise
 * @param sql          the statement text (the schema for Init DB); null when not captured
 * @param digest       16 hex digits, or null for commands without a statement
 * @param digestText   the normalized statement, or null
 * @param params       an execute's values as captured, or null (see {@code paramsProblem})
 * @param sessionState on a session's first line (captures since session_state): how to open it again; else null
 */
public record CapturedEvent(
        long timeMicros,
        long session,
        String user,
        String client,
        String schema,
        String backend,
        String command,
        long statementId,
        String sql,
        String digest,
        String digestText,
        List<Object> params,
        String paramsProblem,
        long durationMicros,
        long rowsSent,
        long rowsAffected,
        int error,
        long bytesIn,
        boolean truncated,
        CapturedSessionState sessionState) {

    public static final String QUERY = "Query";
    public static final String PREPARE = "Prepare";
    public static final String EXECUTE = "Execute";
    public static final String CLOSE = "Close stmt";
    public static final String INIT_DB = "Init DB";
    public static final String PING = "Ping";

    /** The fields every line has. */
    public static final List<String> FIELDS = List.of("time", "session", "user", "client", "schema", "backend", "command",
            "sql", "digest", "digest_text", "duration_us", "rows_sent", "rows_affected", "error", "bytes_in");

    /**
     * Reads one parsed line.
     *
     * @throws IllegalArgumentException naming the field that is missing or of the wrong type
     */
    @SuppressWarnings("unchecked")
    static CapturedEvent of(Map<String, Object> line) {
        for (String field : FIELDS) {
            if (!line.containsKey(field)) {
                throw new IllegalArgumentException("no \"" + field + "\" field (expected every one of " + FIELDS + ")");
            }
        }
        Object params = line.get("params");
        if (params != null && !(params instanceof List)) {
            throw new IllegalArgumentException("\"params\": found " + params + " (expected: a list of values or null)");
        }
        return new CapturedEvent(time(line.get("time")), number(line, "session"), text(line, "user"),
                text(line, "client"), text(line, "schema"), text(line, "backend"), required(line, "command"),
                line.containsKey("statement_id") ? number(line, "statement_id") : -1, text(line, "sql"),
                text(line, "digest"), text(line, "digest_text"), (List<Object>) params, text(line, "params_problem"),
                number(line, "duration_us"), number(line, "rows_sent"), number(line, "rows_affected"),
                (int) number(line, "error"), number(line, "bytes_in"), Boolean.TRUE.equals(line.get("truncated")),
                CapturedSessionState.of(line.get("session_state")));
    }

    /** The key a report groups this statement under: its digest, or its command when it has none. */
    public String digestKey() {
        return digest != null ? digest : command;
    }

    private static long time(Object value) {
        if (!(value instanceof String text)) {
            throw new IllegalArgumentException("\"time\": found " + value + " (expected: an ISO 8601 time in quotes)");
        }
        try {
            Instant t = Instant.parse(text);
            return t.getEpochSecond() * 1_000_000 + t.getNano() / 1000;
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("\"time\": \"" + text + "\" is not an ISO 8601 time (expected e.g."
                    + " 2025-06-01T10:00:00.123456Z)");
        }
    }

    private static long number(Map<String, Object> line, String field) {
        if (line.get(field) instanceof Long value) {
            return value;
        }
        throw new IllegalArgumentException("\"" + field + "\": found " + line.get(field) + " (expected: a whole number)");
    }

    private static String text(Map<String, Object> line, String field) {
        Object value = line.get(field);
        if (value == null || value instanceof String) {
            return (String) value;
        }
        throw new IllegalArgumentException("\"" + field + "\": found " + value + " (expected: text in quotes or null)");
    }

    private static String required(Map<String, Object> line, String field) {
        String value = text(line, field);
        if (value == null) {
            throw new IllegalArgumentException("\"" + field + "\": null (expected: text in quotes)");
        }
        return value;
    }
}
