package dev.sluice.slap;

import dev.sluice.protocol.checksum.OrderBy;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code slap --replay FILE --compare HOST:PORT}: plays a capture on two servers at once and
 * compares their answers statement by statement. Each captured session has a connection on each
 * server, opened as it was captured; statements run one at a time in the capture's order (the
 * order their responses ended), each on both servers together, no earlier than its captured time
 * divided by the speed. One at a time, so that every statement sees the same data on both sides
 * whatever the sessions did around it: two sessions' statements that overlapped in the capture
 * would otherwise interleave differently on each server, and their answers differ for no fault of
 * either. Writes go to both servers: run it on throw-away copies.
 */
public final class Compare {

    /** A captured session's two connections. */
    private record Pair(StatementPlayer a, StatementPlayer b) {
        void close() {
            a.close();
            b.close();
        }
    }

    private final ReplayOptions options;
    private final ReplayPlan plan;
    private final ReplayConnector a;
    private final ReplayConnector b;
    private final ExecutorService sideB = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name("compare-b").daemon(true).factory());
    private final Map<Long, ReplayPlan.Session> sessions = new HashMap<>();
    private final Map<Long, Long> left = new HashMap<>();
    private final Map<Long, Pair> open = new HashMap<>();
    private final Map<Long, String> skipped = new HashMap<>();
    private final CompareTally tally = new CompareTally();
    private final ReplayNotes notesA = new ReplayNotes();
    private final ReplayNotes notesB = new ReplayNotes();
    private long startNanos;

    private Compare(ReplayOptions options, ReplayPlan plan) {
        this.options = options;
        this.plan = plan;
        this.a = new ReplayConnector(options.connection(), plan.multiStatements, options.users());
        this.b = new ReplayConnector(options.compare(), plan.multiStatements, options.users());
        plan.sessions().forEach(s -> {
            sessions.put(s.id, s);
            left.put(s.id, s.statements);
        });
    }

    /** Compares, prints the summary to {@code out}, writes the JSON and HTML files asked for. */
    public static CompareResult run(ReplayOptions options, PrintWriter out, PrintWriter err) {
        Compare compare = new Compare(options, Replay.plan(options.file()));
        CompareResult result;
        try {
            result = compare.execute();
        } finally {
            compare.sideB.shutdownNow();
        }
        CompareReport.print(out, result);
        out.flush();
        if (options.jsonFile() != null) {
            CompareJson.write(options.jsonFile(), result);
        }
        if (options.htmlFile() != null) {
            CompareHtml.write(options.htmlFile(), result);
        }
        return result;
    }

    private CompareResult execute() {
        check(a);
        check(b);
        startNanos = System.nanoTime();
        try {
            CaptureFile.forEach(options.file(), this::step);
        } catch (IllegalArgumentException | UncheckedIOException e) {
            throw new SlapException(e.getMessage(), 1, e);
        } finally {
            open.values().forEach(Pair::close);
            open.clear();
        }
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        return new CompareResult(options.file(), a.address(), b.address(), sessions.size(), plan.statements,
                tally.comparedCount(), seconds, options.describeSpeed(), tally.digests(), tally.notReplayed(),
                notes(), tally.errorsA(), tally.errorsB());
    }

    /** Connects once before the clock starts, so that a wrong address or password fails here, clearly. */
    private static void check(ReplayConnector connector) {
        try (Connection check = connector.open((String) null)) {
            // Connector/J also caches the server's settings: sessions then connect with the handshake alone.
        } catch (SQLException e) {
            throw new SlapException("Error when connecting to " + connector.address() + ": " + Connector.describe(e), 1, e);
        }
    }

    private void step(CapturedEvent event) {
        long session = event.session();
        if (!sessions.containsKey(session)) {
            tally.notReplayed("not read: " + options.file() + " changed since it was read: session " + session + " is new");
            return;
        }
        try {
            if (skipped.containsKey(session)) {
                tally.notReplayed(skipped.get(session));
                return;
            }
            if (options.speed() != ReplayOptions.MAX_SPEED) {
                waitUntil(startNanos + (long) ((event.timeMicros() - plan.firstMicros) * 1000 / options.speed()));
            }
            Pair pair = open.get(session);
            if (pair == null && (pair = open(session)) == null) {
                tally.notReplayed(skipped.get(session));
                return;
            }
            play(pair, event);
        } finally {
            ended(session);
        }
    }

    private void play(Pair pair, CapturedEvent event) {
        String whyNotA = pair.a.unplayable(event);
        String whyNotB = pair.b.unplayable(event);
        if (whyNotA != null && whyNotB != null) {
            tally.notReplayed(event.command() + ": " + whyNotA);
            return;
        }
        Future<StatementPlayer.Played> onB = whyNotB == null ? sideB.submit(() -> pair.b.play(event)) : null;
        StatementPlayer.Played playedA = whyNotA == null ? pair.a.play(event) : null;
        StatementPlayer.Played playedB = onB == null ? null : await(onB);
        StatementResult resultA = playedA == null ? StatementResult.notRun(whyNotA) : playedA.result();
        StatementResult resultB = playedB == null ? StatementResult.notRun(whyNotB) : playedB.result();
        boolean ordered = event.command().equals(CapturedEvent.QUERY) || event.command().equals(CapturedEvent.EXECUTE)
                ? OrderBy.atTopLevel(event.sql()) : false;
        tally.compared(event, playedA, playedB, ResultDifference.of(resultA, resultB, ordered));
        boolean lostA = playedA != null && playedA.lost();
        boolean lostB = playedB != null && playedB.lost();
        if (lostA || lostB) {
            pair.close();
            open.remove(event.session());
            skipped.put(event.session(), "the connection to " + (lostA ? a.address() : b.address()) + " was lost");
        }
    }

    /** Opens the session on both servers at once; null (and the reason in {@link #skipped}) when either fails. */
    private Pair open(long session) {
        ReplayPlan.Session captured = sessions.get(session);
        Future<Connection> onB = sideB.submit(() -> b.open(captured, notesB));
        Connection onA = null;
        String failure = null;
        try {
            onA = a.open(captured, notesA);
        } catch (SQLException e) {
            failure = "the session could not connect to " + a.address() + ": " + Connector.describe(e);
        }
        Connection connectionB = null;
        try {
            connectionB = onB.get();
        } catch (ExecutionException e) {
            if (failure == null) {
                failure = "the session could not connect to " + b.address() + ": "
                        + (e.getCause() instanceof SQLException s ? Connector.describe(s) : e.getCause().toString());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlapException("interrupted", 1, e);
        }
        try {
            if (failure == null) {
                Pair pair = new Pair(new StatementPlayer(onA, true), new StatementPlayer(connectionB, true));
                open.put(session, pair);
                return pair;
            }
        } catch (SQLException e) {
            failure = "the session's connections failed: " + Connector.describe(e);
        }
        close(onA);
        close(connectionB);
        skipped.put(session, failure);
        return null;
    }

    /** One statement of the session is done: after its last, the connections close. */
    private void ended(long session) {
        Long remaining = left.merge(session, -1L, Long::sum);
        if (remaining != null && remaining <= 0) {
            Pair pair = open.remove(session);
            if (pair != null) {
                pair.close();
            }
            left.remove(session);
        }
    }

    /**
     * The notes of both sides: once where both servers opened the sessions alike, else each
     * server's own, named.
     */
    private Map<String, Long> notes() {
        Map<String, Long> onA = notesA.snapshot();
        Map<String, Long> onB = notesB.snapshot();
        Map<String, Long> all = new TreeMap<>();
        onA.forEach((note, n) -> all.put(n.equals(onB.get(note)) ? note : "on " + a.address() + ": " + note, n));
        onB.forEach((note, n) -> {
            if (!n.equals(onA.get(note))) {
                all.put("on " + b.address() + ": " + note, n);
            }
        });
        return all;
    }

    private static StatementPlayer.Played await(Future<StatementPlayer.Played> played) {
        try {
            return played.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlapException("interrupted", 1, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("playing on the second server failed: " + e.getCause(), e.getCause());
        }
    }

    private static void close(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // Already gone.
            }
        }
    }

    private static void waitUntil(long deadline) {
        long wait;
        while ((wait = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(wait);
            if (Thread.currentThread().isInterrupted()) {
                throw new SlapException("interrupted", 1);
            }
        }
    }
}
