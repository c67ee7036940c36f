package dev.sluice.slap;

import java.util.concurrent.atomic.AtomicReference;

/** The moving parts of one timed phase: its clock, pacing, and the fail-fast stop. */
final class PhaseControl {

    private volatile boolean stopped;
    private final AtomicReference<String> fatal = new AtomicReference<>();
    private final AtomicReference<String> firstConnectFailure = new AtomicReference<>();
    private long deadlineNanos;
    private RateGate gate;

    /** Called once before the clients are released; the release publishes these fields. */
    void start(long startNanos, long timeSeconds, double rate) {
        deadlineNanos = timeSeconds > 0 ? startNanos + timeSeconds * 1_000_000_000L : 0;
        gate = rate > 0 ? new RateGate(startNanos, rate) : null;
    }

    boolean timed() {
        return deadlineNanos != 0;
    }

    boolean pastDeadline() {
        return deadlineNanos != 0 && System.nanoTime() - deadlineNanos >= 0;
    }

    RateGate gate() {
        return gate;
    }

    boolean stopped() {
        return stopped;
    }

    /** Fail-fast: keeps the first message and stops every client. */
    void fail(String message) {
        fatal.compareAndSet(null, message);
        stopped = true;
    }

    String fatalMessage() {
        return fatal.get();
    }

    /** True only for the first connect failure of the phase, which is printed right away. */
    boolean firstConnectFailure(String message) {
        return firstConnectFailure.compareAndSet(null, message);
    }
}
