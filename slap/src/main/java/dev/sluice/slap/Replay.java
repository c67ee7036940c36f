package dev.sluice.slap;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 * the captured ones divided by the speed. The whole capture is read into memory first.
 */
public final class Replay {

    private Replay() {
    }

    /** Replays {@code options.file()}, printing the comparison to {@code out}, notes to {@code err}. */
    public static ReplayResult run(ReplayOptions options, PrintWriter out, PrintWriter err) {
        List<CapturedEvent> events;
        try {
            events = CaptureFile.read(options.file());
        } catch (IllegalArgumentException | UncheckedIOException e) {
            throw new SlapException(e.getMessage(), 1, e);
        }
        if (events.isEmpty()) {
            throw new SlapException(options.file() + " holds no statements", 1);
        }
        if (events.stream().noneMatch(e -> e.sql() != null && !e.command().equals(CapturedEvent.INIT_DB))) {
            throw new SlapException(options.file() + " holds no SQL text (captured with sql: digest or none); a replay"
                    + " needs a capture with sql: full", 1);
        }
        Map<Long, List<CapturedEvent>> bySession = new LinkedHashMap<>();
        events.forEach(e -> bySession.computeIfAbsent(e.session(), s -> new ArrayList<>()).add(e));
        List<List<CapturedEvent>> sessions = new ArrayList<>(bySession.values());
        sessions.sort((a, b) -> Long.compare(a.get(0).timeMicros(), b.get(0).timeMicros()));
        boolean multiStatements = events.stream().anyMatch(e -> e.command().equals(CapturedEvent.QUERY)
                && e.sql() != null && e.sql().indexOf(';') >= 0);
        ReplayConnector connector = new ReplayConnector(options.connection(), multiStatements);
        try (Connection check = connector.open(null)) {
            // Connects once before the clock starts: a wrong address fails here, and the driver caches
            // the server's settings so that sessions connect with the handshake alone.
        } catch (SQLException e) {
            throw new SlapException("Error when connecting to server: " + Connector.describe(e), 1, e);
        }

        long captureStart = sessions.get(0).get(0).timeMicros();
        long replayStart = System.nanoTime();
        ErrorTally errors = new ErrorTally();
        List<ReplaySession> runs = new ArrayList<>();
        for (List<CapturedEvent> session : sessions) {
            long offsetNanos = options.speed() == ReplayOptions.MAX_SPEED ? 0
                    : (long) ((session.get(0).timeMicros() - captureStart) * 1000 / options.speed());
            runs.add(new ReplaySession(session, connector, options.speed(), replayStart + offsetNanos, errors));
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
        }
        double seconds = (System.nanoTime() - replayStart) / 1e9;

        ReplayTally total = new ReplayTally();
        runs.forEach(run -> total.merge(run.tally()));
        Map<String, Long> captured = new TreeMap<>();
        Map<String, Long> capturedErrors = new TreeMap<>(ErrorTally::compareCodes);
        for (CapturedEvent e : events) {
            captured.merge(e.command(), 1L, Long::sum);
            if (e.error() != 0) {
                capturedErrors.merge(Integer.toString(e.error()), 1L, Long::sum);
            }
        }
        Map<String, Long> replayErrors = new TreeMap<>(ErrorTally::compareCodes);
        errors.snapshot().forEach((code, entry) -> replayErrors.put(code, entry.count()));
        ReplayResult result = new ReplayResult(sessions.size(), events.size(), captured, total.replayedByCommand,
                total.notReplayed, replayErrors, capturedErrors, seconds);
        ReplayReport.print(out, options, result, events, total, errors.snapshot());
        out.flush();
        return result;
    }
}
