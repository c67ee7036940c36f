package dev.sluice.slap;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Open-loop pacing for {@code --rate}: query number i is due at {@code start + i / rate}, whatever
 * happened to the queries before it. A client takes the next number when it is free, waits until
 * that time if it is still ahead, and measures latency from it, so time spent queued behind a
 * slow server is counted instead of silently omitted.
 */
final class RateGate {

    private final long startNanos;
    private final double nanosPerQuery;
    private final AtomicLong next = new AtomicLong();

    RateGate(long startNanos, double queriesPerSecond) {
        this.startNanos = startNanos;
        this.nanosPerQuery = 1e9 / queriesPerSecond;
    }

    /** Waits for the next query's due time and returns it (a System.nanoTime value). */
    long acquire() {
        long due = startNanos + (long) (next.getAndIncrement() * nanosPerQuery);
        long wait;
        while ((wait = due - System.nanoTime()) > 0) {
            LockSupport.parkNanos(wait);
            if (Thread.currentThread().isInterrupted()) {
                break;
            }
        }
        return due;
    }
}
