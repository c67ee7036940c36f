package dev.sluice.slap;

import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Map;

/**
 * One timed client phase (one iteration at one concurrency).
 *
 * @param millis         mysqlslap's timing: release of the clients to the end of the last, truncated
 * @param queries        list statements that ran (COMMIT and SET AUTOCOMMIT not counted)
 * @param failedConnects clients (or reconnects) that could not connect, by error code
 * @param fatal          the fail-fast message, or null
 * @param intervals      the phase interval by interval, when recorded (--report-html); else empty
 */
public record PhaseResult(long millis, long nanos, long queries, long reads, long writes, long others,
                          long commits, long reconnects, Map<String, ErrorTally.Entry> errors,
                          Map<String, ErrorTally.Entry> failedConnects, Histogram latencyMicros, String fatal,
                          List<IntervalPoint> intervals) {

    public PhaseResult {
        intervals = intervals == null ? List.of() : List.copyOf(intervals);
    }

    /** Without intervals. */
    public PhaseResult(long millis, long nanos, long queries, long reads, long writes, long others, long commits,
                       long reconnects, Map<String, ErrorTally.Entry> errors, Map<String, ErrorTally.Entry> failedConnects,
                       Histogram latencyMicros, String fatal) {
        this(millis, nanos, queries, reads, writes, others, commits, reconnects, errors, failedConnects, latencyMicros,
                fatal, List.of());
    }

    PhaseResult withIntervals(List<IntervalPoint> points) {
        return new PhaseResult(millis, nanos, queries, reads, writes, others, commits, reconnects, errors, failedConnects,
                latencyMicros, fatal, points);
    }

    public long errorCount() {
        return errors.values().stream().mapToLong(ErrorTally.Entry::count).sum();
    }

    public long failedConnectCount() {
        return failedConnects.values().stream().mapToLong(ErrorTally.Entry::count).sum();
    }
}
