package dev.sluice.proxy.differential;

import com.mysql.cj.jdbc.JdbcConnection;
import dev.sluice.testkit.TestUsers;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Runs the steps of one plan on one connection and writes down what each answered. Errors are
 * results like any other; only a lost connection ends the session (its exception propagates).
 */
final class StepRunner {

    /** The statement of {@link Step.Reuse}, prepared once and kept for the whole session. */
    static final String REUSED = "SELECT k, v FROM t WHERE k <= ? ORDER BY k";

    /** What every step is followed by: the session-visible state, so a leak shows where it happens. */
    static final String PROBE = "SELECT DATABASE(), @@in_transaction, @@autocommit, @@sql_mode, @@time_zone,"
            + " @@character_set_client, @@character_set_connection, @@character_set_results, @@collation_connection,"
            + " @@transaction_isolation, @@transaction_read_only, @@group_concat_max_len, @@div_precision_increment,"
            + " @@sql_select_limit, @@lc_time_names, @@sql_safe_updates, @@sql_notes, @u1, @u2, @u3, @tenant, @errno, CURRENT_USER(),"
            + " IS_FREE_LOCK('{lock}')";
    static final String TEMPORARY_PROBE = "SELECT COUNT(*), COALESCE(SUM(n), -1), GROUP_CONCAT(s ORDER BY n)"
            + " FROM sluice_test.diff_tmp";

    private final Connection c;
    private final String lock;
    private final LargeReader large;
    private final Kills kills;
    private PreparedStatement reused;

    StepRunner(Connection c, String lock, Kills kills) {
        this.c = c;
        this.lock = lock;
        this.large = new LargeReader(c);
        this.kills = kills;
    }

    void run(Step step, List<String> out) throws SQLException {
        switch (step) {
            case Step.Sql sql -> {
                for (String statement : sql.statements()) {
                    try (Statement s = c.createStatement()) {
                        Results.execute(s, withLock(statement), out);
                    }
                }
            }
            case Step.Prepared prepared -> prepared(prepared, out);
            case Step.Reuse reuse -> reuse(reuse.k(), out);
            case Step.Large read -> large.read(read, out);
            case Step.Api api -> attempt(out, () -> api(api));
            case Step.Callable callable -> callable(callable.value(), out);
            case Step.Reset reset -> attempt(out, () -> c.unwrap(JdbcConnection.class).resetServerState());
            case Step.ChangeUser change -> changeUser(change.otherUser(), out);
            case Step.Kill kill -> kills.run(c, kill, out);
            case Step.ConnectionId id -> connectionId(out);
        }
    }

    /** The probe after every step. */
    void probe(List<String> out) throws SQLException {
        try (Statement s = c.createStatement()) {
            Results.values(s, "probe", withLock(PROBE), out);
            Results.values(s, "temporary table", TEMPORARY_PROBE, out);
        }
    }

    private String withLock(String statement) {
        return statement.replace("{lock}", lock);
    }

    private void prepared(Step.Prepared step, List<String> out) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(step.sql())) {
            if (step.fetchSize() > 0) {
                ps.setFetchSize(step.fetchSize());
            }
            for (List<Object> parameters : step.executions()) {
                try {
                    for (int i = 0; i < parameters.size(); i++) {
                        ps.setObject(i + 1, parameters.get(i));
                    }
                    if (ps.execute()) {
                        try (ResultSet rs = ps.getResultSet()) {
                            out.add(readPossiblyInterleaved(rs, step.interleave(), out));
                        }
                    } else {
                        out.add("update count " + ps.getLargeUpdateCount());
                    }
                } catch (SQLException e) {
                    out.add(Results.error(e));
                    Results.rethrowIfConnectionLost(c, e);
                }
                Results.warnings(ps, out);
            }
        } catch (SQLException e) {
            out.add("prepare: " + Results.error(e));
            Results.rethrowIfConnectionLost(c, e);
        }
    }

    /** Reads a result; after its second row, when asked, runs another statement before reading on. */
    private String readPossiblyInterleaved(ResultSet rs, boolean interleave, List<String> out) throws SQLException {
        Results.RowDigest digest = new Results.RowDigest();
        int columns = rs.getMetaData().getColumnCount();
        String meta = Results.columns(rs.getMetaData());
        while (rs.next()) {
            digest.add(Results.row(rs, columns));
            if (interleave && digest.count() == 2) {
                try (Statement other = c.createStatement()) {
                    Results.execute(other, "SELECT 'between fetches', DATABASE(), @u1", out);
                }
            }
        }
        return meta + " " + digest;
    }

    private void reuse(int k, List<String> out) throws SQLException {
        try {
            if (reused == null) {
                reused = c.prepareStatement(REUSED);
            }
            reused.setInt(1, k);
            try (ResultSet rs = reused.executeQuery()) {
                out.add(Results.read(rs));
            }
        } catch (SQLException e) {
            out.add(Results.error(e));
            Results.rethrowIfConnectionLost(c, e);
        }
    }

    private void api(Step.Api api) throws SQLException {
        switch (api.call()) {
            case AUTOCOMMIT_ON -> c.setAutoCommit(true);
            case AUTOCOMMIT_OFF -> c.setAutoCommit(false);
            case COMMIT -> c.commit();
            case ROLLBACK -> c.rollback();
            case SET_CATALOG -> c.setCatalog(api.argument());
            case ISOLATION_READ_COMMITTED -> c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            case ISOLATION_SERIALIZABLE -> c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            case READ_ONLY_ON -> c.setReadOnly(true);
            case READ_ONLY_OFF -> c.setReadOnly(false);
        }
    }

    private void callable(int value, List<String> out) throws SQLException {
        try (CallableStatement call = c.prepareCall("{CALL p_tenant(?)}")) {
            call.setInt(1, value);
            boolean result = call.execute();
            while (true) {
                if (result) {
                    try (ResultSet rs = call.getResultSet()) {
                        out.add(Results.read(rs));
                    }
                } else if (call.getLargeUpdateCount() == -1) {
                    break;
                } else {
                    out.add("update count " + call.getLargeUpdateCount());
                }
                result = call.getMoreResults();
            }
        } catch (SQLException e) {
            out.add(Results.error(e));
            Results.rethrowIfConnectionLost(c, e);
        }
    }

    private void changeUser(boolean otherUser, List<String> out) throws SQLException {
        JdbcConnection jc = c.unwrap(JdbcConnection.class);
        if (!otherUser) {
            attempt(out, () -> jc.changeUser(TestUsers.APP_USER, TestUsers.APP_PASSWORD));
            return;
        }
        String before;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT DATABASE()")) {
            rs.next();
            before = rs.getString(1);
        }
        attempt(out, () -> c.setCatalog(TestUsers.TEST_SCHEMA));
        attempt(out, () -> jc.changeUser(TestUsers.APP2_USER, TestUsers.APP2_PASSWORD));
        try (Statement s = c.createStatement()) {
            Results.execute(s, "SELECT CURRENT_USER(), DATABASE(), @u1, @tenant, @@sql_mode, @@time_zone", out);
            Results.execute(s, "SELECT COUNT(*) FROM diff_0.t", out);
        }
        attempt(out, () -> jc.changeUser(TestUsers.APP_USER, TestUsers.APP_PASSWORD));
        if (before != null) {
            attempt(out, () -> c.setCatalog(before));
        }
    }

    private void connectionId(List<String> out) throws SQLException {
        long handshake = c.unwrap(JdbcConnection.class).getId();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT CONNECTION_ID()")) {
            rs.next();
            out.add("CONNECTION_ID() is the handshake's id: " + (rs.getLong(1) == handshake));
        } catch (SQLException e) {
            out.add(Results.error(e));
            Results.rethrowIfConnectionLost(c, e);
        }
    }

    interface JdbcCall {
        void run() throws SQLException;
    }

    private void attempt(List<String> out, JdbcCall call) throws SQLException {
        try {
            call.run();
            out.add("ok");
        } catch (SQLException e) {
            out.add(Results.error(e));
            Results.rethrowIfConnectionLost(c, e);
        }
    }

    void close() {
        if (reused != null) {
            try {
                reused.close();
            } catch (SQLException ignored) {
                // the connection is closed right after
            }
        }
    }
}
