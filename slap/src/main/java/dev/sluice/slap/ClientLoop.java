package dev.sluice.slap;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One client of a timed phase, mysqlslap's run_task: connect (retrying), cycle through the query
 * list until the limit, COMMIT every {@code --commit} queries and at the end, reconnect every
 * {@code --detach} statements. Unlike mysqlslap it counts a failed query and goes on, unless
 * {@code --fail-fast} is set.
 */
final class ClientLoop implements Runnable {

    private final PhaseContext context;
    private final PhaseControl control;
    private final LiveCounters counters;
    private volatile SqlSession session;
    /** When the query in flight was sent (System.nanoTime), 0 between queries. */
    private volatile long busySince;
    /** The stall watch closed this client's connection under the query in flight. */
    private volatile boolean abandoned;

    ClientLoop(PhaseContext context, PhaseControl control, LiveCounters counters) {
        this.context = context;
        this.control = control;
        this.counters = counters;
    }

    @Override
    public void run() {
        counters.running.incrementAndGet();
        try {
            session = connect();
            if (session == null) {
                return;
            }
            if (context.verbose() >= 3) {
                context.out().print("connected!\n");
            }
            if (context.commit() > 0) {
                control(session, "SET AUTOCOMMIT=0");
            }
            loop();
            if (session != null && context.commit() > 0) {
                control(session, "COMMIT");
                counters.commits.increment();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (session != null) {
                session.close();
            }
            counters.running.decrementAndGet();
        }
    }

    private void loop() throws InterruptedException {
        List<Statement> statements = context.statements();
        long limit = context.limit();
        long queries = 0;
        int sinceCommit = 0;
        while (true) {
            int position = 0;
            for (Statement statement : statements) {
                if (control.stopped() || control.pastDeadline()) {
                    return;
                }
                if (!context.onlyPrint() && context.detach() > 0 && position % context.detach() == 0) {
                    session.close();
                    counters.reconnects.increment();
                    session = connect();
                    if (session == null) {
                        return;
                    }
                }
                position++;
                if (!execute(statement)) {
                    return;
                }
                queries++;
                if (context.commit() > 0 && ++sinceCommit == context.commit()) {
                    sinceCommit = 0;
                    control(session, "COMMIT");
                    counters.commits.increment();
                }
                if (limit > 0 && queries == limit) {
                    return;
                }
            }
            // mysqlslap spins forever on an empty list with a limit; slap ends the client.
            boolean more = control.timed() || (limit > 0 && queries < limit);
            if (!more || statements.isEmpty()) {
                return;
            }
        }
    }

    /** Runs one statement; false when the client must stop. */
    private boolean execute(Statement statement) throws InterruptedException {
        String sql;
        byte[] utf8 = null;
        if (statement.kind() == Statement.Kind.KEYED) {
            List<String> keys = context.keys();
            if (keys.isEmpty()) {
                // mysqlslap skips a keyed statement when the table had no rows to pick a key from.
                return true;
            }
            sql = statement.render(keys.get(ThreadLocalRandom.current().nextInt(keys.size())));
        } else {
            sql = statement.sql();
            utf8 = statement.utf8();
        }
        RateGate gate = control.gate();
        long start = gate != null ? gate.acquire() : System.nanoTime();
        if (gate != null && control.pastDeadline()) {
            return false;
        }
        busySince = System.nanoTime();
        try {
            session.execute(sql, utf8);
            counters.record(statement.category(), System.nanoTime() - start);
            return true;
        } catch (SQLException e) {
            if (abandoned) {
                // The server may be stalled for good: a reconnect could wait for its greeting for
                // ever (no timeout bounds a login), so this client ends here.
                counters.errors.add("timeout", "no answer within " + context.connector().queryTimeoutSeconds()
                        + " s (--query-timeout): the client gave up");
                session.close();
                session = null;
                return false;
            }
            return failed(sql, e);
        } finally {
            busySince = 0;
        }
    }

    /**
     * From the stall watch's thread: closes the connection of a query sent more than {@code
     * timeoutNanos} before {@code now}, so the client's blocked read fails and it reconnects.
     */
    void abandonIfStalled(long now, long timeoutNanos) {
        long since = busySince;
        if (since != 0 && now - since > timeoutNanos && session instanceof JdbcSession jdbc && !abandoned) {
            abandoned = true;
            jdbc.abort();
        }
    }

    /** SET AUTOCOMMIT and COMMIT: counted as errors when they fail, never as queries. */
    private void control(SqlSession on, String sql) throws InterruptedException {
        try {
            on.execute(sql);
        } catch (SQLException e) {
            failed(sql, e);
        }
    }

    private boolean failed(String sql, SQLException e) throws InterruptedException {
        counters.errors.add(Connector.errorKey(e), Connector.firstLine(e.getMessage()));
        if (context.failFast()) {
            control.fail("Cannot run query " + sql + " ERROR : " + Connector.firstLine(e.getMessage()));
            return false;
        }
        if (session instanceof JdbcSession jdbc && jdbc.isClosed()) {
            // The connection is gone (server restart, kill): reconnect as --detach would.
            session.close();
            counters.reconnects.increment();
            session = connect();
            return session != null;
        }
        return true;
    }

    private SqlSession connect() throws InterruptedException {
        if (context.onlyPrint()) {
            return new PrintSession(context.out());
        }
        try {
            return new JdbcSession(context.connector().openWithRetries(context.schema()),
                    context.verbose() >= 3 ? context.out() : null);
        } catch (SQLException e) {
            String message = Connector.describe(e);
            counters.connectErrors.add(Connector.errorKey(e), Connector.firstLine(e.getMessage()));
            if (context.failFast()) {
                control.fail("Error when connecting to server: " + message);
            } else if (control.firstConnectFailure(message)) {
                synchronized (context.err()) {
                    context.err().print("slap: Error when connecting to server: " + message + "\n");
                    context.err().flush();
                }
            }
            return null;
        }
    }
}
