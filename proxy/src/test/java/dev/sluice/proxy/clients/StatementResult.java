package dev.sluice.proxy.clients;

import java.sql.Blob;
import java.sql.Clob;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * One result of a statement as a client sees it, in a form two runs can be compared with:
 * column descriptions and values, an update count, or an error.
 */
sealed interface StatementResult {

    record Column(String label, String typeName, int jdbcType, int precision, int scale, String className) {
    }

    record Rows(List<Column> columns, List<List<Object>> rows) implements StatementResult {
    }

    record UpdateCount(long count) implements StatementResult {
    }

    record Failure(int errorCode, String sqlState, String message) implements StatementResult {
        /** MariaDB Connector/J puts the connection id in front of messages; it differs between any two connections. */
        private static final java.util.regex.Pattern CONNECTION_ID = java.util.regex.Pattern.compile("^\\(conn=\\d+\\) ");

        static Failure of(SQLException e) {
            String message = e.getMessage() == null ? "" : CONNECTION_ID.matcher(e.getMessage()).replaceFirst("");
            return new Failure(e.getErrorCode(), e.getSQLState(), message);
        }
    }

    /** A plain value as a result, for things read outside result sets (OUT parameters, counts). */
    static StatementResult value(String label, Object value) {
        Object plain = value instanceof byte[] bytes ? HexFormat.of().formatHex(bytes) : value;
        return new Rows(List.of(new Column(label, "", 0, 0, 0, value == null ? "" : value.getClass().getName())),
                List.of(java.util.Collections.singletonList(plain)));
    }

    static Rows rows(ResultSet rs) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        List<Column> columns = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            columns.add(new Column(meta.getColumnLabel(i), meta.getColumnTypeName(i), meta.getColumnType(i),
                    meta.getPrecision(i), meta.getScale(i), meta.getColumnClassName(i)));
        }
        List<List<Object>> rows = new ArrayList<>();
        while (rs.next()) {
            List<Object> row = new ArrayList<>();
            for (int i = 1; i <= columns.size(); i++) {
                row.add(normalize(rs.getObject(i)));
            }
            rows.add(row);
        }
        return new Rows(columns, rows);
    }

    /** Every result of a statement that has just run, following getMoreResults to the end. */
    static List<StatementResult> all(Statement statement, boolean firstIsResultSet) throws SQLException {
        List<StatementResult> results = new ArrayList<>();
        boolean isResultSet = firstIsResultSet;
        for (int guard = 0; guard < 10_000; guard++) {
            if (isResultSet) {
                try (ResultSet rs = statement.getResultSet()) {
                    results.add(rows(rs));
                }
            } else {
                long count = statement.getLargeUpdateCount();
                if (count == -1) {
                    return results;
                }
                results.add(new UpdateCount(count));
            }
            try {
                isResultSet = statement.getMoreResults();
            } catch (SQLException e) {
                results.add(Failure.of(e));
                return results;
            }
        }
        throw new IllegalStateException("more than 10000 results from one statement");
    }

    /** Runs {@code sql} as a text statement; an error becomes the last result instead of a throw. */
    static List<StatementResult> execute(java.sql.Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            boolean first;
            try {
                first = statement.execute(sql);
            } catch (SQLException e) {
                return List.of(Failure.of(e));
            }
            return all(statement, first);
        }
    }

    private static Object normalize(Object value) throws SQLException {
        return switch (value) {
            case byte[] bytes -> HexFormat.of().formatHex(bytes);
            case Blob blob -> HexFormat.of().formatHex(blob.getBytes(1, (int) blob.length()));
            case Clob clob -> clob.getSubString(1, (int) clob.length());
            case null, default -> value;
        };
    }
}
