package dev.sluice.proxy.stats;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A small concurrent latency histogram for figures kept by the thousand (one per query digest):
 * logarithmic buckets, eight per power of two, so any value is within 6.25% of the one reported,
 * in 2.5 KiB. Values below 8 are exact. Recording is one atomic increment, from any thread.
 */
public final class LogHistogram {

    private static final int SUB_BUCKETS = 8;
    private static final int SUB_BITS = 3;
    static final int BUCKETS = SUB_BUCKETS + (63 - SUB_BITS) * SUB_BUCKETS;

    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);

    public void record(long value) {
        counts.incrementAndGet(bucket(Math.max(0, value)));
    }

    static int bucket(long value) {
        if (value < SUB_BUCKETS) {
            return (int) value;
        }
        int top = 63 - Long.numberOfLeadingZeros(value);
        int sub = (int) ((value >>> (top - SUB_BITS)) & (SUB_BUCKETS - 1));
        return SUB_BUCKETS + (top - SUB_BITS) * SUB_BUCKETS + sub;
    }

    /** The middle of a bucket's range: what a value in it is reported as. */
    static long representative(int bucket) {
        if (bucket < SUB_BUCKETS) {
            return bucket;
        }
        int top = (bucket - SUB_BUCKETS) / SUB_BUCKETS + SUB_BITS;
        int sub = (bucket - SUB_BUCKETS) % SUB_BUCKETS;
        long low = (long) (SUB_BUCKETS + sub) << (top - SUB_BITS);
        long width = 1L << (top - SUB_BITS);
        return low + width / 2;
    }

    /** The value at {@code percentile} (0 to 100), or 0 when nothing was recorded. */
    public long percentile(double percentile) {
        long total = 0;
        long[] snapshot = new long[BUCKETS];
        for (int i = 0; i < BUCKETS; i++) {
            snapshot[i] = counts.get(i);
            total += snapshot[i];
        }
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(total * Math.min(100, Math.max(0, percentile)) / 100.0));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += snapshot[i];
            if (seen >= rank) {
                return representative(i);
            }
        }
        return representative(BUCKETS - 1);
    }
}
