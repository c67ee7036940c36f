package dev.sluice.slap;

import org.HdrHistogram.Histogram;

import java.util.Map;

/**
 * One timed client phase (one iteration at one concurrency).
 *
 * @param millis         mysqlslap's timing: release of the clients to the end of the last, truncated
 * @param queries        list statements that ran (COMMIT and SET AUTOCOMMIT not counted)
 * @param failedConnects clients (or reconnects) that could not connect, by error code
 * @param fatal          the fail-fast message, or null
 */
public record PhaseResult(long millis, long nanos, long queries, long reads, long writes, long others,
                          long commits, long reconnects, Map<String, ErrorTally.Entry> errors,
                          Map<String, ErrorTally.Entry> failedConnects, Histogram latencyMicros, String fatal) {

    public long errorCount() {
        return errors.values().stream().mapToLong(ErrorTally.Entry::count).sum();
    }

    public long failedConnectCount() {
        return failedConnects.values().stream().mapToLong(ErrorTally.Entry::count).sum();
    }
}
