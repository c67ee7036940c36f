package dev.sluice.proxy.stats;

import dev.sluice.proxy.backend.LatencyBuckets;
import dev.sluice.proxy.observe.StatementContext;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The figures of one query digest, updated from every event loop at once: adders for the sums,
 * compare-and-set only when a new minimum or maximum is seen. The count and the sum of times are
 * the ones of its Prometheus buckets, so that /metrics and the digests table never disagree.
 */
public final class DigestStats implements StatementContext.Tally {

    private final long fingerprint;
    private final String text;
    private final long firstSeenMillis;
    private final LatencyBuckets buckets = new LatencyBuckets();
    private final LongAdder rowsSent = new LongAdder();
    private final LongAdder rowsAffected = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final AtomicLong minNanos = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong maxNanos = new AtomicLong();
    private final LogHistogram micros = new LogHistogram();
    private volatile long lastSeenMillis;

    DigestStats(long fingerprint, String text, long nowMillis) {
        this.fingerprint = fingerprint;
        this.text = text;
        this.firstSeenMillis = nowMillis;
        this.lastSeenMillis = nowMillis;
    }

    void record(long latencyNanos, long rows, long affected, boolean error, long nowMillis) {
        buckets.record(latencyNanos);
        if (rows > 0) {
            rowsSent.add(rows);
        }
        if (affected > 0) {
            rowsAffected.add(affected);
        }
        if (error) {
            errors.increment();
        }
        long min = minNanos.get();
        while (latencyNanos < min && !minNanos.compareAndSet(min, latencyNanos)) {
            min = minNanos.get();
        }
        long max = maxNanos.get();
        while (latencyNanos > max && !maxNanos.compareAndSet(max, latencyNanos)) {
            max = maxNanos.get();
        }
        micros.record(latencyNanos / 1_000);
        if (nowMillis != lastSeenMillis) {
            lastSeenMillis = nowMillis;
        }
    }

    public long fingerprint() {
        return fingerprint;
    }

    public String text() {
        return text;
    }

    public long count() {
        return buckets.count();
    }

    public long sumNanos() {
        return buckets.sumNanos();
    }

    /** Its latencies in the buckets /metrics shows. */
    public LatencyBuckets buckets() {
        return buckets;
    }

    /** 0 before the first execution. */
    public long minNanos() {
        long min = minNanos.get();
        return min == Long.MAX_VALUE ? 0 : min;
    }

    public long maxNanos() {
        return maxNanos.get();
    }

    /** Within 6.25%: see {@link LogHistogram}. */
    public long p95Micros() {
        return micros.percentile(95);
    }

    public long rowsSent() {
        return rowsSent.sum();
    }

    public long rowsAffected() {
        return rowsAffected.sum();
    }

    public long errors() {
        return errors.sum();
    }

    public long firstSeenMillis() {
        return firstSeenMillis;
    }

    public long lastSeenMillis() {
        return lastSeenMillis;
    }
}
