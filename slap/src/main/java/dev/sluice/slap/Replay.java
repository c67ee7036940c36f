package dev.sluice.slap;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * {@code slap --replay}: plays a jsonl capture against a server. Each captured session gets its
 * own client, which starts when the session started in the capture (with {@code --concurrency
 * preserve}) or when one of N clients is free, no earlier than that; pauses between statements are
 * the captured ones divided by the speed. The capture is read twice: once to plan (sessions,
 * counts, captured latencies), once while playing, a little ahead of the clients
 * ({@link ReplayFeed}), so its size is not bounded by the heap.
 */
public final class Replay {

    private Replay() {
    }

    /** The first pass over a capture, refusing one that holds nothing to replay. */
    static ReplayPlan plan(Path file) {
        ReplayPlan plan;
        try {
            plan = ReplayPlan.of(file);
        } catch (IllegalArgumentException | UncheckedIOException e) {
            throw new SlapException(e.getMessage(), 1, e);
        }
        if (plan.statements == 0) {
            throw new SlapException(file + " holds no statements", 1);
        }
        if (!plan.anySql) {
            throw new SlapException(file + " holds no SQL text (captured with sql: digest or none); a replay"
                    + " needs a capture with sql: full", 1);
        }
        return plan;
    }

    /** Replays {@code options.file()}, printing the comparison to {@code out}, notes to {@code err}. */
    public static ReplayResult run(ReplayOptions options, PrintWriter out, PrintWriter err) {
        return run(options, out, err, ReplayFeed.MAX_AHEAD);
    }

    static ReplayResult run(ReplayOptions options, PrintWriter out, PrintWriter err, int maxAhead) {
        ReplayPlan plan = plan(options.file());
        ReplayConnector connector = new ReplayConnector(options.connection(), plan.multiStatements, options.users());
        try (Connection check = connector.open(null)) {
            // Connects once before the clock starts: a wrong address fails here, and the driver caches
            // the server's settings so that sessions connect with the handshake alone.
        } catch (SQLException e) {
            throw new SlapException("Error when connecting to server: " + Connector.describe(e), 1, e);
        }

        List<ReplayPlan.Session> sessions = plan.sessions();
        long captureStart = sessions.get(0).firstMicros;
        long replayStart = System.nanoTime();
        ReplayFeed feed = new ReplayFeed(options.file(), sessions, options.speed(), Math.min(captureStart, plan.firstMicros),
                replayStart, maxAhead);
        Thread reader = Thread.ofPlatform().name("replay-reader").daemon(true).start(feed);
        ErrorTally errors = new ErrorTally();
        ReplayNotes notes = new ReplayNotes();
        // The capture's order across sessions is kept only when each session has a client.
        ReplayProgress progress = options.concurrency() == ReplayOptions.PRESERVE ? new ReplayProgress() : null;
        List<ReplaySession> runs = new ArrayList<>();
        for (ReplayPlan.Session session : sessions) {
            long offsetNanos = options.speed() == ReplayOptions.MAX_SPEED ? 0
                    : (long) ((session.firstMicros - captureStart) * 1000 / options.speed());
            runs.add(new ReplaySession(session, feed, connector, options.speed(), replayStart + offsetNanos, errors,
                    notes, progress));
        }
        int clients = options.concurrency() == ReplayOptions.PRESERVE ? runs.size()
                : Math.min(options.concurrency(), runs.size());
        ThreadFactory threads = options.clientThreads().virtualFor(clients)
                ? Thread.ofVirtual().name("replay-", 0).factory() : Thread.ofPlatform().name("replay-", 0).factory();
        ExecutorService pool = Executors.newFixedThreadPool(clients, threads);
        try {
            runs.forEach(pool::submit);
            pool.shutdown();
            while (!pool.awaitTermination(1, TimeUnit.MINUTES)) {
                err.println("slap: replay still running (" + pool + ")");
                err.flush();
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
            throw new SlapException("interrupted", 1, e);
        } finally {
            reader.interrupt();
        }
        double seconds = (System.nanoTime() - replayStart) / 1e9;

        ReplayTally total = new ReplayTally();
        runs.forEach(run -> total.merge(run.tally()));
        Map<String, Long> replayErrors = new TreeMap<>(ErrorTally::compareCodes);
        errors.snapshot().forEach((code, entry) -> replayErrors.put(code, entry.count()));
        ReplayResult result = new ReplayResult(sessions.size(), plan.statements, plan.byCommand, total.replayedByCommand,
                total.notReplayed, replayErrors, plan.errors, notes.snapshot(), seconds);
        ReplayReport.print(out, options, result, plan, total, errors.snapshot());
        out.flush();
        return result;
    }
}
