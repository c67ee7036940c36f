package dev.sluice.proxy.capture;

import java.util.concurrent.atomic.LongAdder;

/**
 * Capture's counters since the proxy started, across every enable and disable: what was queued
 * for the writer, what the writer put in the file, what was dropped because the queue was full
 * (or left in it when capture stopped on a write error), and how often capture turned itself off.
 */
public final class CaptureStats {

    private final LongAdder queued = new LongAdder();
    private final LongAdder written = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final LongAdder bytesWritten = new LongAdder();
    private final LongAdder rotations = new LongAdder();
    private final LongAdder failures = new LongAdder();

    void queued() {
        queued.increment();
    }

    void dropped() {
        dropped.increment();
    }

    void dropped(long count) {
        dropped.add(count);
    }

    void written(long statements, long bytes) {
        written.add(statements);
        bytesWritten.add(bytes);
    }

    void rotated() {
        rotations.increment();
    }

    void failed() {
        failures.increment();
    }

    /** Statements handed to the writer. */
    public long queuedStatements() {
        return queued.sum();
    }

    /** Statements in the file (or in rotated files). */
    public long writtenStatements() {
        return written.sum();
    }

    /** Statements not captured because the writer's queue was full, or left behind when capture failed. */
    public long droppedStatements() {
        return dropped.sum();
    }

    public long bytesWritten() {
        return bytesWritten.sum();
    }

    public long rotations() {
        return rotations.sum();
    }

    /** Times capture turned itself off because the file could not be opened or written. */
    public long failures() {
        return failures.sum();
    }
}
