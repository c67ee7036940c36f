package dev.sluice.proxy.probe;

import java.util.List;
import java.util.Map;

/**
 * The whole answer to one health-check command: OK, ERR, or a text result set read into strings.
 *
 * @param errorCode 0 unless the answer was an ERR
 * @param rows      each row as column name to value (null for SQL NULL), in column order
 */
public record QueryResult(int errorCode, String errorMessage, List<String> columns, List<Map<String, String>> rows) {

    public static QueryResult ok() {
        return new QueryResult(0, null, List.of(), List.of());
    }

    public static QueryResult error(int code, String message) {
        return new QueryResult(code, message, List.of(), List.of());
    }

    public boolean isError() {
        return errorCode != 0;
    }

    /** The value of {@code column} in the first row, or null when there is no row or it is NULL. */
    public String first(String column) {
        return rows.isEmpty() ? null : rows.get(0).get(column);
    }
}
