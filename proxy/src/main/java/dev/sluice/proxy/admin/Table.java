package dev.sluice.proxy.admin;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One admin table as it is right now: named, typed columns and rows of values (String, Long,
 * Double or null). The SQL port and the JSON API show the same tables, so both always agree.
 */
public record Table(String name, List<Column> columns, List<List<Object>> rows) {

    public enum Type { TEXT, INTEGER, DECIMAL }

    public record Column(String name, Type type) {
    }

    public Table {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    /** The index of a column by name, any case; -1 when there is none. */
    public int indexOf(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(column)) {
                return i;
            }
        }
        return -1;
    }

    public List<String> columnNames() {
        return columns.stream().map(Column::name).toList();
    }

    /** Builds a table row by row, checking that each row has one value per column. */
    public static final class Builder {
        private final String name;
        private final List<Column> columns = new ArrayList<>();
        private final List<List<Object>> rows = new ArrayList<>();

        public Builder(String name) {
            this.name = name;
        }

        public Builder text(String column) {
            columns.add(new Column(column, Type.TEXT));
            return this;
        }

        public Builder integer(String column) {
            columns.add(new Column(column, Type.INTEGER));
            return this;
        }

        public Builder decimal(String column) {
            columns.add(new Column(column, Type.DECIMAL));
            return this;
        }

        public Builder row(Object... values) {
            if (values.length != columns.size()) {
                throw new IllegalArgumentException(name + ": row of " + values.length + " values (expected: "
                        + columns.size() + ")");
            }
            List<Object> row = new ArrayList<>(values.length);
            for (int i = 0; i < values.length; i++) {
                row.add(normalize(columns.get(i), values[i]));
            }
            rows.add(row);
            return this;
        }

        public Table build() {
            return new Table(name, columns, rows);
        }

        private Object normalize(Column column, Object value) {
            if (value == null) {
                return null;
            }
            return switch (column.type()) {
                case TEXT -> value.toString();
                case INTEGER -> value instanceof Boolean b ? (b ? 1L : 0L) : ((Number) value).longValue();
                case DECIMAL -> ((Number) value).doubleValue();
            };
        }
    }

    /** A value as the text protocol and the terminal show it: decimals with 3 places. */
    public static String text(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Double d) {
            return String.format(Locale.ROOT, "%.3f", d);
        }
        return Objects.toString(value);
    }
}
