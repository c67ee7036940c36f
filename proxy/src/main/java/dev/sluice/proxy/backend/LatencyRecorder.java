package dev.sluice.proxy.backend;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Per-backend statement latencies from every event loop into HdrHistograms, without locks on the
 * recording side ({@link Recorder} swaps buffers when a reader takes an interval). Readers get the
 * whole run and the last {@value #WINDOW_SECONDS} seconds; the window is kept as one histogram per
 * second, so {@link #roll()} must run at least once a second for it to stay exact (the stats
 * ticker does that). The same latencies also go into fixed {@link LatencyBuckets}, which
 * Prometheus can add up across proxies.
 */
public final class LatencyRecorder {

    /** Up to an hour, in microseconds. */
    private static final long HIGHEST_MICROS = 3_600_000_000L;
    /**
     * Exact below 256 µs, within 1% above. Each backend keeps 14 histograms: at 3 digits each is
     * 189 KB (2.6 MB of an idle proxy's heap per backend), at 2 digits 27 KB.
     */
    private static final int DIGITS = 2;
    public static final int WINDOW_SECONDS = 10;

    private final Recorder recorder = new Recorder(HIGHEST_MICROS, DIGITS);
    private final Histogram total = new Histogram(HIGHEST_MICROS, DIGITS);
    private final Histogram[] seconds = new Histogram[WINDOW_SECONDS];
    private final long[] secondOf = new long[WINDOW_SECONDS];
    private final LatencyBuckets buckets = new LatencyBuckets();
    private Histogram interval;

    public LatencyRecorder() {
        for (int i = 0; i < WINDOW_SECONDS; i++) {
            seconds[i] = new Histogram(HIGHEST_MICROS, DIGITS);
            secondOf[i] = -1;
        }
    }

    public void record(long nanos) {
        long micros = Math.max(1, Math.min(HIGHEST_MICROS, nanos / 1_000));
        recorder.recordValue(micros);
        buckets.record(nanos);
    }

    /** The run's latencies in fixed buckets, live (since the start or the last {@link #reset()}). */
    public LatencyBuckets buckets() {
        return buckets;
    }

    /** Folds what was recorded since the last call into the run's total and the current second. */
    public synchronized void roll() {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
        long second = System.nanoTime() / 1_000_000_000L;
        int slot = (int) Math.floorMod(second, (long) WINDOW_SECONDS);
        if (secondOf[slot] != second) {
            seconds[slot].reset();
            secondOf[slot] = second;
        }
        seconds[slot].add(interval);
    }

    /** The whole run (since the start or the last {@link #reset()}), in microseconds. */
    public synchronized Histogram snapshotTotal() {
        roll();
        return total.copy();
    }

    /** The last {@value #WINDOW_SECONDS} seconds, in microseconds. */
    public synchronized Histogram snapshotRecent() {
        roll();
        long now = secondOf[(int) Math.floorMod(System.nanoTime() / 1_000_000_000L, (long) WINDOW_SECONDS)];
        Histogram recent = new Histogram(HIGHEST_MICROS, DIGITS);
        for (int i = 0; i < WINDOW_SECONDS; i++) {
            if (secondOf[i] >= 0 && now - secondOf[i] < WINDOW_SECONDS) {
                recent.add(seconds[i]);
            }
        }
        return recent;
    }

    /** Forgets everything recorded so far (admin RESET STATS). */
    public synchronized void reset() {
        interval = recorder.getIntervalHistogram(interval);
        total.reset();
        buckets.reset();
        for (int i = 0; i < WINDOW_SECONDS; i++) {
            seconds[i].reset();
            secondOf[i] = -1;
        }
    }
}
