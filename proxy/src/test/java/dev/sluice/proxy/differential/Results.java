package dev.sluice.proxy.differential;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Turns what a statement answered into text that can be compared: results with their columns'
 * names and types, update counts, generated keys, warnings, errors. Results of more than
 * {@value #LISTED_ROWS} rows are shown as a count, a checksum and their first and last rows.
 */
final class Results {

    static final int LISTED_ROWS = 60;
    /** Errors whose message carries a number of this connection (a thread or statement id). */
    private static final Set<Integer> NUMBERED_MESSAGES = Set.of(1094, 1095, 1243);

    private Results() {
    }

    /** Runs {@code sql} (perhaps several statements) and adds every result, count and warning to {@code out}. */
    static void execute(Statement s, String sql, List<String> out) throws SQLException {
        boolean singleInsert = !sql.contains(";") && sql.regionMatches(true, 0, "INSERT", 0, 6);
        try {
            boolean result = singleInsert ? s.execute(sql, Statement.RETURN_GENERATED_KEYS) : s.execute(sql);
            while (true) {
                if (result) {
                    try (ResultSet rs = s.getResultSet()) {
                        out.add(read(rs));
                    }
                } else {
                    long count = s.getLargeUpdateCount();
                    if (count == -1) {
                        break;
                    }
                    out.add("update count " + count);
                    if (singleInsert) {
                        try (ResultSet keys = s.getGeneratedKeys()) {
                            out.add("keys " + rows(keys));
                        }
                    }
                }
                result = s.getMoreResults();
            }
        } catch (SQLException e) {
            out.add(error(e));
            rethrowIfConnectionLost(s.getConnection(), e);
        }
        warnings(s, out);
    }

    /** The rows of a one-result query, without the columns' metadata (probes: the same every time). */
    static void values(Statement s, String label, String sql, List<String> out) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            out.add(label + " " + rows(rs));
        } catch (SQLException e) {
            out.add(label + " " + error(e));
            rethrowIfConnectionLost(s.getConnection(), e);
        }
        warnings(s, out);
    }

    /** Columns and rows of a result read to its end. */
    static String read(ResultSet rs) throws SQLException {
        RowDigest digest = new RowDigest();
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            digest.add(row(rs, columns));
        }
        return columns(rs.getMetaData()) + " " + digest;
    }

    static String columns(ResultSetMetaData md) throws SQLException {
        List<String> columns = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            columns.add(md.getColumnLabel(i) + ":" + md.getColumnTypeName(i) + "(" + md.getPrecision(i) + ","
                    + md.getScale(i) + ")");
        }
        return "columns " + columns;
    }

    static List<String> row(ResultSet rs, int columns) throws SQLException {
        List<String> row = new ArrayList<>(columns);
        for (int i = 1; i <= columns; i++) {
            row.add(rs.getString(i));
        }
        return row;
    }

    /** Every row of a small result, for keys and probes. */
    static List<List<String>> rows(ResultSet rs) throws SQLException {
        int columns = rs.getMetaData().getColumnCount();
        List<List<String>> rows = new ArrayList<>();
        while (rs.next()) {
            rows.add(row(rs, columns));
        }
        return rows;
    }

    static void warnings(Statement s, List<String> out) {
        try {
            List<String> found = new ArrayList<>();
            for (SQLWarning w = s.getWarnings(); w != null; w = w.getNextWarning()) {
                found.add(w.getErrorCode() + " " + w.getMessage());
            }
            if (!found.isEmpty()) {
                out.add("warnings " + found);
            }
        } catch (SQLException e) {
            out.add("warnings: " + error(e));
        }
    }

    /** Code, SQLSTATE and message; the class for errors the driver raised itself (code 0). */
    static String error(SQLException e) {
        String message = String.valueOf(e.getMessage());
        if (NUMBERED_MESSAGES.contains(e.getErrorCode())) {
            message = message.replaceAll("\\d+", "#");
        }
        return "error " + e.getErrorCode() + " " + e.getSQLState() + (e.getErrorCode() == 0
                ? " " + e.getClass().getSimpleName() : "") + ": " + firstLine(message);
    }

    private static String firstLine(String message) {
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    /**
     * Whether the connection is gone, so nothing that follows on it can be compared: a socket that
     * failed or timed out (Connector/J then closes the connection). Not SQLSTATE 08 by itself:
     * Connector/J also gives 08003 to "Can't call rollback when autocommit=true".
     */
    static boolean connectionLost(Connection c, SQLException e) {
        if (e instanceof com.mysql.cj.jdbc.exceptions.CommunicationsException) {
            return true;
        }
        try {
            return c.isClosed();
        } catch (SQLException closed) {
            return true;
        }
    }

    static void rethrowIfConnectionLost(Connection c, SQLException e) throws SQLException {
        if (connectionLost(c, e)) {
            throw e;
        }
    }

    /** Rows as a list while few, else a count, a checksum and the first and last rows. */
    static final class RowDigest {
        private final CRC32C crc = new CRC32C();
        private final List<List<String>> listed = new ArrayList<>();
        private List<String> last;
        private long count;

        void add(List<String> row) {
            count++;
            for (String value : row) {
                crc.update((value == null ? "\u0000null" : value).getBytes(StandardCharsets.UTF_8));
                crc.update(0x1F);
            }
            crc.update(0x1E);
            if (listed.size() < LISTED_ROWS) {
                listed.add(row);
            }
            last = row;
        }

        long count() {
            return count;
        }

        @Override
        public String toString() {
            if (count <= LISTED_ROWS) {
                return "rows " + listed;
            }
            return count + " rows, crc32c " + Long.toHexString(crc.getValue()) + ", first " + listed.get(0)
                    + ", last " + last;
        }
    }
}
