package dev.sluice.proxy.backend;

import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one backend's traffic added up to, from every event loop at once: client statements and
 * their errors (by code), bytes each way, latencies (histograms and a recent average the
 * least-latency balancer reads). Adders and a lock-free recorder: counting never waits.
 */
public final class BackendStats {

    /** Weight of the newest sample in the latency average. */
    private static final double EWMA_ALPHA = 0.2;

    private final LongAdder queries = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder bytesToBackend = new LongAdder();
    private final LongAdder bytesFromBackend = new LongAdder();
    private final LatencyRecorder latency = new LatencyRecorder();
    /** ERR responses to clients' statements by error code; few codes, so the map stays small. */
    private final ConcurrentHashMap<Integer, LongAdder> errorsByCode = new ConcurrentHashMap<>();
    /** Racy but harmless: a lost update only delays the average by one sample. */
    private volatile double latencyEwmaNanos;

    /** A client's statement got its whole response after {@code latencyNanos}. */
    public void recordResponse(long latencyNanos, boolean error) {
        queries.increment();
        if (error) {
            errors.increment();
        }
        latency.record(latencyNanos);
        double previous = latencyEwmaNanos;
        latencyEwmaNanos = previous == 0 ? latencyNanos : previous + EWMA_ALPHA * (latencyNanos - previous);
    }

    public void countBytes(long toBackend, long fromBackend) {
        if (toBackend > 0) {
            bytesToBackend.add(toBackend);
        }
        if (fromBackend > 0) {
            bytesFromBackend.add(fromBackend);
        }
    }

    /** Counts an ERR a client's statement got here, by its code. */
    public void countError(int errorCode) {
        LongAdder counter = errorsByCode.get(errorCode);
        if (counter == null) {
            counter = errorsByCode.computeIfAbsent(errorCode, code -> new LongAdder());
        }
        counter.increment();
    }

    /** ERR responses so far by error code, ordered by code. */
    public SortedMap<Integer, Long> errorsByCode() {
        SortedMap<Integer, Long> copy = new TreeMap<>();
        errorsByCode.forEach((code, count) -> copy.put(code, count.sum()));
        return copy;
    }

    /** Exponentially weighted average of recent response times; 0 until one is measured. */
    public double latencyEwmaNanos() {
        return latencyEwmaNanos;
    }

    /** Starts the counters and latencies afresh (admin RESET STATS); the average goes on. */
    public void reset() {
        queries.reset();
        errors.reset();
        bytesToBackend.reset();
        bytesFromBackend.reset();
        errorsByCode.clear();
        latency.reset();
    }

    public long queries() {
        return queries.sum();
    }

    public long errors() {
        return errors.sum();
    }

    public long bytesToBackend() {
        return bytesToBackend.sum();
    }

    public long bytesFromBackend() {
        return bytesFromBackend.sum();
    }

    public LatencyRecorder latency() {
        return latency;
    }
}
