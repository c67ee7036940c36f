package dev.sluice.proxy.differential;

import com.mysql.cj.jdbc.JdbcConnection;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A session kills its own running statement, as {@code Statement.cancel()}, setQueryTimeout and
 * Ctrl-C in the mariadb client do: KILL QUERY of the id its handshake gave, sent on a second
 * connection to the same target. What is compared is whether the statement was interrupted (it
 * returns well before its SLEEP ends) and what it and the KILL answered.
 */
final class Kills implements AutoCloseable {

    private static final String INTERRUPTED = "interrupted (SLEEP returned 1, or ERR 1317)";

    private final Target target;
    private final String options;
    private final String marker;
    private final ProcessList processList;
    private final ExecutorService background = Executors.newVirtualThreadPerTaskExecutor();
    private int count;

    /**
     * @param marker unique to this session on this target: the comment by which the processlist
     *               shows that the statement runs
     */
    Kills(Target target, String options, String marker, ProcessList processList) {
        this.target = target;
        this.options = options;
        this.marker = marker;
        this.processList = processList;
    }

    void run(Connection c, Step.Kill kill, List<String> out) throws SQLException {
        switch (kill.kind()) {
            case SECOND_CONNECTION -> fromSecondConnection(c, kill.seconds(), out);
            case QUERY_TIMEOUT -> queryTimeout(c, kill.seconds(), out);
        }
    }

    private void fromSecondConnection(Connection c, int seconds, List<String> out) throws SQLException {
        long id = c.unwrap(JdbcConnection.class).getId();
        String sql = "SELECT SLEEP(" + seconds + ") /* " + marker + "-" + (++count) + " */";
        try (Connection killer = target.open("sluice_test", options)) {
            long start = System.nanoTime();
            Future<String> sleeping = background.submit(() -> sleepOn(c, sql));
            boolean running = processList.awaitRunning(sql, (seconds - 3) * 1000L);
            out.add(running ? "the statement runs" : "the statement was not seen running");
            try (Statement s = killer.createStatement()) {
                s.execute("KILL QUERY " + id);
                out.add("KILL QUERY: ok");
            } catch (SQLException e) {
                out.add("KILL QUERY: " + Results.error(e));
            }
            out.add(await(sleeping, seconds));
            out.add(interrupted(start, seconds));
        }
    }

    private void queryTimeout(Connection c, int seconds, List<String> out) throws SQLException {
        long start = System.nanoTime();
        try (Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            try (ResultSet rs = s.executeQuery("SELECT SLEEP(" + seconds + ")")) {
                rs.next();
                out.add("SLEEP returned " + rs.getString(1));
            } catch (SQLException e) {
                out.add(Results.error(e));
                Results.rethrowIfConnectionLost(c, e);
            }
        }
        out.add(interrupted(start, seconds));
    }

    /**
     * A KILL QUERY that finds the SLEEP waiting makes it return 1; one that finds the statement
     * running but not yet waiting (its text is in the processlist from the moment it is read)
     * fails it with 1317. Which one is the server's timing, on either target: both say interrupted.
     */
    private static String sleepOn(Connection c, String sql) {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            String returned = rs.getString(1);
            return "1".equals(returned) ? INTERRUPTED : "SLEEP returned " + returned;
        } catch (SQLException e) {
            return e.getErrorCode() == 1317 ? INTERRUPTED : Results.error(e);
        }
    }

    private static String await(Future<String> sleeping, int seconds) throws SQLException {
        try {
            return sleeping.get(seconds + 30L, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return "failed: " + e.getCause();
        } catch (TimeoutException e) {
            throw new SQLException("SELECT SLEEP(" + seconds + ") had not returned " + (seconds + 30) + " s later", "08000");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted", "08000", e);
        }
    }

    /**
     * Whether the statement ended at least 2 s before its sleep would have: a KILL that arrives
     * late under load (Connector/J's timeout opens a connection and logs in first) still counts.
     */
    private static String interrupted(long start, int seconds) {
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        return millis < (seconds - 2) * 1000L ? "interrupted early" : "ran its full sleep";
    }

    @Override
    public void close() {
        background.shutdownNow();
    }
}
