package dev.sluice.proxy.split;

import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.TrackedConnection;
import dev.sluice.proxy.gtid.GtidPosition;
import dev.sluice.proxy.stats.ProxyStats;
import io.netty.channel.EventLoop;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * An autocommit write whose connection to the primary was lost before its answer came: it may
 * have committed or not. It runs again only once that primary shows it did not: the connection's
 * thread is gone there (the server restarted since the write was sent, or the thread is not in
 * the process list), so it cannot commit later; and every transaction in the binlog after the
 * floor taken when the write was sent was acknowledged to some client, so it is none of them
 * ({@link dev.sluice.proxy.gtid.AcknowledgedWrites#notOnlyAcknowledged}). Otherwise the client gets
 * ER_CONNECTION_KILLED (1927) saying the outcome is unknown, as before: never a write run twice.
 * A transaction not acknowledged yet may be another session's whose answer is on its way through
 * the proxy at that moment: such are given {@link #SETTLE_NANOS} to be acknowledged, which shows
 * them none of the lost write (whose answer can come no more).
 * Needs MariaDB with its binlog on (GTIDs), and one primary at a time (with two fixed primaries
 * writing in one domain, sequence numbers say nothing about order).
 */
final class LostWrite {

    private static final int MAX_RECOVERIES = 3;
    /** How long transactions of the binlog not acknowledged yet get to be, looked at every {@link #SETTLE_POLL_NANOS}. */
    static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long SETTLE_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final SplitBackends backends;
    private final ProxyStats stats;
    /** What the statement in flight left to go on: null when it may not run again. */
    private Sent sent;
    /** The statement was lost and waits to be shown not to have run, on this. */
    private Sent lost;
    /** The verification whose answer counts; an older one (its connection lost meanwhile) is forgotten. */
    private Object verifying;
    private int recoveries;

    private record Sent(Backend backend, long threadId, long nanos, GtidPosition floor) {
    }

    LostWrite(SplitBackends backends, ProxyStats stats) {
        this.backends = backends;
        this.stats = stats;
    }

    /** A new statement: nothing is lost. */
    void reset() {
        sent = null;
        lost = null;
        verifying = null;
        recoveries = 0;
    }

    /** The statement goes out on {@code connection}; {@code mayRunAgain}: an autocommit write on its own. */
    void sent(boolean mayRunAgain, TrackedConnection connection) {
        Backend backend = connection.backend();
        sent = mayRunAgain && backend.isPrimary() && connection.threadId() >= 0 && onePrimary()
                ? new Sent(backend, connection.threadId(), System.nanoTime(), backends.acknowledgedWrites().floor()) : null;
    }

    /** The connection was lost before any answer: true when the statement waits to be shown not to have run. */
    boolean lost() {
        if (sent == null || recoveries >= MAX_RECOVERIES) {
            sent = null;
            return false;
        }
        lost = sent;
        sent = null;
        recoveries++;
        return true;
    }

    boolean pending() {
        return lost != null;
    }

    /** The backend it was lost on, where it may run again. */
    Backend backend() {
        return lost.backend();
    }

    /**
     * Asks {@code connection} (to the backend the write was lost on) whether the write ran: then
     * {@code notRun} to send it again, or {@code unknown} with the client's message.
     */
    void verify(TrackedConnection connection, Runnable notRun, Consumer<String> unknown) {
        // Still pending until answered: if this connection is lost too, the next one asks again.
        Sent write = lost;
        if (connection.backend() != write.backend()) {
            lost = null;
            unknown.accept(message(write, "it may have run on " + write.backend().name() + ", and the next primary is "
                    + connection.backend().name()));
            stats.lostWriteUnknown();
            return;
        }
        String sql = "SELECT @@gtid_binlog_pos, (SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE"
                + " VARIABLE_NAME = 'UPTIME'), (SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = "
                + write.threadId() + "), CONNECTION_ID()";
        Object attempt = new Object();
        verifying = attempt;
        String[] answer = new String[4];
        connection.sendOwnQuery(sql, row -> ConnectionSetup.columns(row, 4).toArray(answer), response -> {
            if (verifying != attempt) {
                return;
            }
            String why = response.isError() ? "the server could not say (" + response.errorMessage() + ")"
                    : threadMayRun(write, answer);
            if (why != null) {
                decided(why, notRun, unknown);
                return;
            }
            try {
                GtidPosition binlog = GtidPosition.parse(answer[0]);
                settle(attempt, binlog, connection.channel().eventLoop(), System.nanoTime() + SETTLE_NANOS, notRun,
                        unknown);
            } catch (IllegalArgumentException e) {
                decided("the binlog position is unreadable (" + e.getMessage() + ")", notRun, unknown);
            }
        });
    }

    /**
     * Whether every transaction in {@code binlog} after the write's floor was acknowledged to a
     * client; one that was not yet is looked at again until {@code deadline}. The write stays
     * pending meanwhile: if this connection is lost too, the next one asks again.
     */
    private void settle(Object attempt, GtidPosition binlog, EventLoop loop, long deadline, Runnable notRun,
                        Consumer<String> unknown) {
        if (verifying != attempt) {
            return;
        }
        String notShown = backends.acknowledgedWrites().notOnlyAcknowledged(lost.floor(), binlog);
        if (notShown != null && System.nanoTime() - deadline < 0) {
            loop.schedule(() -> settle(attempt, binlog, loop, deadline, notRun, unknown), SETTLE_POLL_NANOS,
                    TimeUnit.NANOSECONDS);
            return;
        }
        decided(notShown == null ? null : "in the binlog of " + lost.backend().name() + ", " + notShown, notRun, unknown);
    }

    /** {@code why} the write may have run, or null when it did not: it runs again, or the client is told. */
    private void decided(String why, Runnable notRun, Consumer<String> unknown) {
        Sent write = lost;
        lost = null;
        verifying = null;
        if (why == null) {
            stats.lostWriteRetried();
            notRun.run();
        } else {
            stats.lostWriteUnknown();
            unknown.accept(message(write, why));
        }
    }

    /**
     * Why the lost connection's thread may still commit the write, or null when it cannot: the server
     * restarted since it was sent (thread ids start again from 1, so one below that thread's is proof;
     * or the server has been up for less time than has passed), or no thread of that id is left.
     */
    private static String threadMayRun(Sent write, String[] answer) {
        long sinceSentMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - write.nanos());
        long connectionId = number(answer[3]);
        long uptimeSeconds = number(answer[1]);
        boolean restarted = connectionId >= 0 && connectionId < write.threadId()
                || uptimeSeconds >= 0 && (uptimeSeconds + 1) * 1000 < sinceSentMillis;
        return restarted || "0".equals(answer[2]) ? null
                : "its connection's thread may still be running on " + write.backend().name();
    }

    /** A non-negative number as the server wrote it, or -1. */
    private static long number(String text) {
        return text != null && text.matches("[0-9]{1,18}") ? Long.parseLong(text) : -1;
    }

    private static String message(Sent write, String why) {
        return "Lost connection to backend " + write.backend().name() + " during the statement, which may or may not"
                + " have run: " + why;
    }

    private boolean onePrimary() {
        return backends.backends().get().stream().filter(b -> b.config().isPrimary()).count() <= 1;
    }
}
