package dev.sluice.proxy.mirror;

import dev.sluice.proxy.stats.LogHistogram;
import java.util.concurrent.atomic.LongAdder;

/**
 * One statement digest as the mirror saw it: copies the shadow answered, how many of those
 * answers differed from the client's, copies the shadow failed (an error it answered, or none),
 * both sides' latencies, and the first difference with the statement that showed it. Written by
 * the mirror's thread, read by the admin ports.
 */
public final class MirrorDigest {

    private final long digest;
    private final String text;
    private final LongAdder compared = new LongAdder();
    private final LongAdder mismatched = new LongAdder();
    private final LongAdder shadowErrors = new LongAdder();
    /** Microseconds. */
    private final LogHistogram client = new LogHistogram();
    private final LogHistogram shadow = new LogHistogram();
    private volatile String exampleSql;
    private volatile String exampleDifference;

    MirrorDigest(long digest, String text) {
        this.digest = digest;
        this.text = text;
    }

    void compared(long clientNanos, long shadowNanos, String difference, boolean shadowError, String sql) {
        compared.increment();
        if (shadowError) {
            shadowErrors.increment();
        }
        client.record(clientNanos / 1000);
        shadow.record(shadowNanos / 1000);
        if (difference != null) {
            mismatched.increment();
            example(sql, difference);
        }
    }

    void failed(String reason, String sql) {
        shadowErrors.increment();
        if (exampleSql == null && mismatched.sum() == 0) {
            exampleSql = sql;
            exampleDifference = "shadow: " + reason;
        }
    }

    /** The first difference wins; a shadow failure kept before it gives way to it. */
    private void example(String sql, String difference) {
        if (exampleSql == null || exampleDifference.startsWith("shadow: ")) {
            exampleSql = sql;
            exampleDifference = difference;
        }
    }

    public long digest() {
        return digest;
    }

    public String text() {
        return text;
    }

    public long compared() {
        return compared.sum();
    }

    public long mismatched() {
        return mismatched.sum();
    }

    public long shadowErrors() {
        return shadowErrors.sum();
    }

    /** Milliseconds on the client's server at {@code percentile}, or null before the first comparison. */
    public Double clientMillis(double percentile) {
        return compared() == 0 ? null : client.percentile(percentile) / 1000.0;
    }

    public Double shadowMillis(double percentile) {
        return compared() == 0 ? null : shadow.percentile(percentile) / 1000.0;
    }

    /** How many times slower the shadow's p99 is than the client's server's (0.5: twice as fast), or null. */
    public Double p99Ratio() {
        Double a = clientMillis(99);
        Double b = shadowMillis(99);
        return a == null || b == null || a == 0 ? null : b / a;
    }

    /** The statement that first differed (or failed on the shadow), or null. */
    public String exampleSql() {
        return exampleSql;
    }

    public String exampleDifference() {
        return exampleDifference;
    }
}
