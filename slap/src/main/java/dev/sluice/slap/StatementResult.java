package dev.sluice.slap;

import dev.sluice.protocol.checksum.RowChecksum;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * What one statement answered, reduced to what two servers' answers are compared on: the error,
 * or each result in turn (its columns' names and types and its rows as two checksums, one that
 * depends on their order and one that does not, with the first rows kept as an example; or its
 * affected rows), and the warnings' codes. Rows are read as text, as the server formats them,
 * binary columns as hex; the checksums are {@link RowChecksum}'s, which the proxy's mirror shares.
 */
final class StatementResult {

    /** Rows kept as text per result, to show where two results part. */
    static final int SAMPLE_ROWS = 20;
    private static final int SAMPLE_CHARS = 160;

    /**
     * A result set ({@code columns} not null: labels and types) or an update count; {@code sample}
     * holds the first rows' values as the report shows them: {@code 'text'}, {@code NULL}, {@code 0x00ff}.
     */
    record Part(String columns, List<String> labels, long rows, long ordered, long unordered,
                List<List<String>> sample, long affected) {

        /** A kept row as the report shows it: {@code ('a', NULL, 0x00ff)}. */
        String row(int index) {
            if (index >= sample.size()) {
                return "none";
            }
            StringBuilder text = new StringBuilder("(");
            List<String> values = sample.get(index);
            for (int i = 0; i < values.size(); i++) {
                text.append(i == 0 ? "" : ", ").append(values.get(i));
            }
            String row = text.append(')').toString();
            return row.length() > SAMPLE_CHARS ? row.substring(0, SAMPLE_CHARS - 3) + "..." : row;
        }
    }

    final List<Part> parts;
    /** Codes and messages, as the server listed them. */
    final List<String> warnings;
    /** The server's error code, or the SQLSTATE of a client-side failure (as slap counts errors); null when none. */
    final String errorKey;
    /** The error's first line; null when none. */
    final String error;
    /** Why this side did not run the statement; null when it did. */
    final String notRun;

    private StatementResult(List<Part> parts, List<String> warnings, String errorKey, String error, String notRun) {
        this.parts = List.copyOf(parts);
        this.warnings = List.copyOf(warnings);
        this.errorKey = errorKey;
        this.error = error;
        this.notRun = notRun;
    }

    static StatementResult notRun(String reason) {
        return new StatementResult(List.of(), List.of(), null, null, reason);
    }

    static StatementResult failed(SQLException e) {
        return new StatementResult(List.of(), List.of(), Connector.errorKey(e), Connector.firstLine(e.getMessage()), null);
    }

    /** Collects a statement's results as they are read. */
    static final class Builder {
        private final List<Part> parts = new ArrayList<>();
        private final List<String> warnings = new ArrayList<>();

        private String columns;
        private List<String> labels;
        private RowChecksum checksum;
        private List<List<String>> sample;

        /** Reads every row of {@code rows}. */
        void rows(ResultSet rows) throws SQLException {
            ResultSetMetaData meta = rows.getMetaData();
            int count = meta.getColumnCount();
            boolean[] binary = new boolean[count];
            List<String> names = new ArrayList<>(count);
            List<String> types = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                names.add(meta.getColumnLabel(i + 1));
                types.add(meta.getColumnTypeName(i + 1));
                int type = meta.getColumnType(i + 1);
                binary[i] = type == Types.BINARY || type == Types.VARBINARY || type == Types.LONGVARBINARY
                        || type == Types.BLOB;
            }
            result(names, types);
            String[] values = new String[count];
            while (rows.next()) {
                for (int i = 0; i < count; i++) {
                    values[i] = binary[i] ? hex(rows.getBytes(i + 1)) : rows.getString(i + 1);
                }
                row(values, binary);
            }
            end();
        }

        /** A result set begins: its columns' labels and type names. */
        void result(List<String> names, List<String> types) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < names.size(); i++) {
                text.append(i == 0 ? "" : ", ").append(names.get(i)).append(' ').append(types.get(i));
            }
            columns = text.toString();
            labels = List.copyOf(names);
            checksum = new RowChecksum();
            sample = new ArrayList<>();
        }

        /** One row: text values (null for NULL), binary ones as hex. */
        void row(String[] values, boolean[] binary) {
            long hash = RowChecksum.SEED;
            List<String> kept = sample.size() < SAMPLE_ROWS ? new ArrayList<>(values.length) : null;
            for (int i = 0; i < values.length; i++) {
                String value = values[i];
                hash = RowChecksum.fnv(hash, value == null ? "\u0001NULL" : value);
                hash = RowChecksum.fnv(hash, 0);
                if (kept != null) {
                    kept.add(value == null ? "NULL" : binary[i] ? "0x" + shorten(value) : "'" + shorten(value) + "'");
                }
            }
            checksum.add(hash);
            if (kept != null) {
                sample.add(kept);
            }
        }

        void end() {
            parts.add(new Part(columns, labels, checksum.rows(), checksum.ordered(), checksum.unordered(), sample, -1));
        }

        void affected(long count) {
            parts.add(new Part(null, List.of(), 0, 0, 0, List.of(), count));
        }

        void warnings(SQLWarning first) {
            for (SQLWarning w = first; w != null; w = w.getNextWarning()) {
                warnings.add(w.getErrorCode() + " " + Connector.firstLine(w.getMessage()));
            }
        }

        StatementResult build() {
            return new StatementResult(parts, warnings, null, null, null);
        }
    }

    /** Briefly, for an example: the error, or the results. */
    String describe() {
        if (notRun != null) {
            return "not run (" + notRun + ")";
        }
        if (errorKey != null) {
            return "error " + errorKey + " (" + error + ")";
        }
        List<String> each = new ArrayList<>();
        for (Part p : parts) {
            each.add(p.columns != null ? p.rows + (p.rows == 1 ? " row" : " rows") : p.affected + " affected");
        }
        return "OK" + (each.isEmpty() ? "" : ", " + String.join(" + ", each))
                + (warnings.isEmpty() ? "" : ", warnings " + warnings);
    }

    private static String shorten(String value) {
        return value.length() > SAMPLE_CHARS ? value.substring(0, SAMPLE_CHARS - 3) + "..." : value;
    }

    private static String hex(byte[] bytes) {
        return bytes == null ? null : HexFormat.of().formatHex(bytes);
    }
}
