package dev.sluice.slap;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters every client of one timed phase writes to and the reporters read while it runs.
 * Latencies go to an HdrHistogram {@link Recorder} in microseconds; {@link #drainInterval()} hands
 * out what arrived since the last call and keeps the running total.
 */
final class LiveCounters {

    final LongAdder reads = new LongAdder();
    final LongAdder writes = new LongAdder();
    final LongAdder others = new LongAdder();
    final LongAdder commits = new LongAdder();
    final LongAdder reconnects = new LongAdder();
    final AtomicInteger running = new AtomicInteger();
    final ErrorTally errors = new ErrorTally();
    final ErrorTally connectErrors = new ErrorTally();

    /** An hour, in microseconds: longer latencies are recorded as an hour. */
    static final long HIGHEST_LATENCY_MICROS = 3_600_000_000L;

    /**
     * A fixed range: an auto-resizing recorder wraps every value in a second reader-writer phase
     * of its own (two more atomic operations per query, on counters all clients share) and copies
     * its counts whenever a new maximum arrives.
     */
    private final Recorder recorder = new Recorder(1, HIGHEST_LATENCY_MICROS, 3);
    private final Histogram total = new Histogram(3);
    private Histogram recycled;

    void record(Statement.Category category, long latencyNanos) {
        switch (category) {
            case READ -> reads.increment();
            case WRITE -> writes.increment();
            case OTHER -> others.increment();
        }
        recorder.recordValue(Math.clamp(latencyNanos / 1_000, 1, HIGHEST_LATENCY_MICROS));
    }

    long queries() {
        return reads.sum() + writes.sum() + others.sum();
    }

    /** The latencies recorded since the previous call; they are added to the total too. */
    synchronized Histogram drainInterval() {
        Histogram interval = recorder.getIntervalHistogram(recycled);
        total.add(interval);
        recycled = interval;
        return interval.copy();
    }

    /** Every latency of the phase; call after the clients have ended. */
    synchronized Histogram totalLatency() {
        drainInterval();
        return total.copy();
    }
}
