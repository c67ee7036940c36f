package dev.sluice.proxy.backend;

import java.util.concurrent.atomic.LongAdder;

/**
 * Latencies counted into fixed buckets, the shape of a Prometheus classic histogram: because every
 * proxy uses the same bounds, the buckets of several proxies add up, and a quantile of the sum is
 * still right (a quantile gauge per proxy cannot be combined). Recording is a short scan of the
 * bounds and two adder increments, from any thread; counts are exact (no rounding to a bucket of
 * some precision), and a value on a bound falls in that bound's bucket ({@code le}, less or equal).
 */
public final class LatencyBuckets {

    /**
     * Upper bounds in seconds, 1-2-5 from 50 µs (a point select on a fast network) to a minute;
     * anything slower is counted only in the implicit +Inf bucket.
     */
    private static final double[] BOUNDS_SECONDS = {0.00005, 0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01,
            0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 60};
    private static final long[] BOUNDS_NANOS = new long[BOUNDS_SECONDS.length];

    static {
        for (int i = 0; i < BOUNDS_SECONDS.length; i++) {
            BOUNDS_NANOS[i] = Math.round(BOUNDS_SECONDS[i] * 1e9);
        }
    }

    /** One per bound, then the one past the last bound. */
    private final LongAdder[] counts = new LongAdder[BOUNDS_NANOS.length + 1];
    private final LongAdder sumNanos = new LongAdder();

    public LatencyBuckets() {
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    /** The finite upper bounds, in seconds, ascending (a copy). */
    public static double[] boundsSeconds() {
        return BOUNDS_SECONDS.clone();
    }

    public void record(long nanos) {
        long value = Math.max(0, nanos);
        counts[bucket(value)].increment();
        sumNanos.add(value);
    }

    /** Most statements are fast: scanning from the smallest bound ends in a few steps for them. */
    static int bucket(long nanos) {
        int i = 0;
        while (i < BOUNDS_NANOS.length && nanos > BOUNDS_NANOS[i]) {
            i++;
        }
        return i;
    }

    /**
     * The count in each bucket, not cumulative: one per bound of {@link #boundsSeconds()}, then
     * the count above the last bound. Read bucket by bucket while others record, so the total may
     * miss a value being recorded; take the count from this array, not from {@link #count()},
     * where the two must agree.
     */
    public long[] counts() {
        long[] snapshot = new long[counts.length];
        for (int i = 0; i < counts.length; i++) {
            snapshot[i] = counts[i].sum();
        }
        return snapshot;
    }

    public long count() {
        long total = 0;
        for (LongAdder count : counts) {
            total += count.sum();
        }
        return total;
    }

    public long sumNanos() {
        return sumNanos.sum();
    }

    public void reset() {
        for (LongAdder count : counts) {
            count.reset();
        }
        sumNanos.reset();
    }
}
