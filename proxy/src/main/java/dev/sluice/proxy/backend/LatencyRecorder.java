package dev.sluice.proxy.backend;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Per-backend statement latencies from every event loop into one HdrHistogram, without locks on
 * the recording side ({@link Recorder} swaps buffers when a reader takes an interval).
 */
public final class LatencyRecorder {

    /** Up to an hour, 3 significant digits, in microseconds. */
    private static final long HIGHEST_MICROS = 3_600_000_000L;

    private final Recorder recorder = new Recorder(HIGHEST_MICROS, 3);
    private final Histogram total = new Histogram(HIGHEST_MICROS, 3);
    private Histogram interval;

    public void record(long nanos) {
        long micros = Math.max(1, Math.min(HIGHEST_MICROS, nanos / 1_000));
        recorder.recordValue(micros);
    }

    /** Folds what was recorded since the last call into the run's total and returns a copy of it. */
    public synchronized Histogram snapshotTotal() {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
        return total.copy();
    }
}
