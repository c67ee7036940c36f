package dev.sluice.proxy.differential;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Iterator;
import java.util.List;

/**
 * Reads a large result as {@link Step.Large} says: streamed, through a cursor, buffered, or as the
 * first of two results; pausing at given rows, as a slow reader does, so the proxy's socket buffers
 * fill and it must stop reading the backend and start again.
 */
final class LargeReader {

    private final Connection c;

    LargeReader(Connection c) {
        this.c = c;
    }

    void read(Step.Large step, List<String> out) throws SQLException {
        try {
            switch (step.mode()) {
                case STREAM -> {
                    try (Statement s = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
                        s.setFetchSize(Integer.MIN_VALUE);
                        readAll(s, s.execute(step.sql()), step, out);
                    }
                }
                case CURSOR -> {
                    try (PreparedStatement ps = c.prepareStatement(step.sql())) {
                        ps.setFetchSize(step.fetchSize());
                        try (ResultSet rs = ps.executeQuery()) {
                            out.add(read(rs, step));
                        }
                        Results.warnings(ps, out);
                    }
                }
                case BUFFERED -> {
                    try (Statement s = c.createStatement()) {
                        readAll(s, s.execute(step.sql()), step, out);
                    }
                }
                case MULTI -> {
                    try (Statement s = c.createStatement()) {
                        readAll(s, s.execute(step.sql() + "; SELECT 'after', 2"), step, out);
                    }
                }
            }
        } catch (SQLException e) {
            out.add(Results.error(e));
            Results.rethrowIfConnectionLost(c, e);
        }
    }

    /** The first result as the step says, any further ones whole, then the warnings. */
    private static void readAll(Statement s, boolean result, Step.Large step, List<String> out) throws SQLException {
        boolean first = true;
        while (true) {
            if (result) {
                try (ResultSet rs = s.getResultSet()) {
                    out.add(first ? read(rs, step) : Results.read(rs));
                }
                first = false;
            } else if (s.getLargeUpdateCount() == -1) {
                break;
            } else {
                out.add("update count " + s.getLargeUpdateCount());
            }
            result = s.getMoreResults();
        }
        Results.warnings(s, out);
    }

    private static String read(ResultSet rs, Step.Large step) throws SQLException {
        Results.RowDigest digest = new Results.RowDigest();
        int columns = rs.getMetaData().getColumnCount();
        String meta = Results.columns(rs.getMetaData());
        Iterator<Step.Pause> pauses = step.pauses().iterator();
        Step.Pause next = pauses.hasNext() ? pauses.next() : null;
        while (rs.next()) {
            digest.add(Results.row(rs, columns));
            while (next != null && digest.count() == next.row()) {
                sleep(next.millis());
                next = pauses.hasNext() ? pauses.next() : null;
            }
            if (digest.count() == step.closeAt()) {
                return meta + " closed after " + digest;
            }
        }
        return meta + " " + digest;
    }

    private static void sleep(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while pausing mid-result", e);
        }
    }
}
