package dev.sluice.slap;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * A first pass over a capture that keeps no statement: its sessions (first statement, count,
 * schema), the counts and errors per command, and per (command, digest) the captured latencies
 * the report compares with. The replay then reads the file a second time, as it plays it, so a
 * capture far larger than the heap can be replayed.
 */
final class ReplayPlan {

    /**
     * One captured session: when it started, as whom, with what schema and state (from its first
     * line), and how many statements it has.
     */
    static final class Session {
        final long id;
        final long firstMicros;
        final String schema;
        final String user;
        /** Null in captures older than session_state. */
        final CapturedSessionState state;
        long statements;

        Session(CapturedEvent first) {
            id = first.session();
            firstMicros = first.timeMicros();
            schema = first.schema();
            user = first.user();
            state = first.sessionState();
        }
    }

    /** The captured side of one report row. */
    static final class Captured {
        final String command;
        final String digest;
        final String text;
        final Histogram micros = new Histogram(3);
        long totalMicros;

        Captured(CapturedEvent e) {
            command = e.command();
            digest = e.digest();
            text = e.digestText() != null ? e.digestText() : e.sql();
        }
    }

    private final Map<Long, Session> sessions = new LinkedHashMap<>();
    final Map<String, Long> byCommand = new TreeMap<>();
    final Map<String, Long> errors = new TreeMap<>(ErrorTally::compareCodes);
    final Map<String, Captured> byKey = new HashMap<>();
    long statements;
    long firstMicros = Long.MAX_VALUE;
    boolean multiStatements;
    boolean anySql;

    static ReplayPlan of(Path file) {
        ReplayPlan plan = new ReplayPlan();
        CaptureFile.forEach(file, plan::add);
        return plan;
    }

    private void add(CapturedEvent e) {
        statements++;
        firstMicros = Math.min(firstMicros, e.timeMicros());
        sessions.computeIfAbsent(e.session(), id -> new Session(e)).statements++;
        byCommand.merge(e.command(), 1L, Long::sum);
        if (e.error() != 0) {
            errors.merge(Integer.toString(e.error()), 1L, Long::sum);
        }
        Captured row = byKey.computeIfAbsent(ReplaySession.key(e), k -> new Captured(e));
        row.micros.recordValue(Math.max(1, e.durationMicros()));
        row.totalMicros += e.durationMicros();
        anySql |= e.sql() != null && !e.command().equals(CapturedEvent.INIT_DB);
        multiStatements |= e.command().equals(CapturedEvent.QUERY) && e.sql() != null && e.sql().indexOf(';') >= 0;
    }

    /** The sessions by their first statement's time. */
    List<Session> sessions() {
        List<Session> ordered = new ArrayList<>(sessions.values());
        ordered.sort(Comparator.comparingLong(s -> s.firstMicros));
        return ordered;
    }
}
