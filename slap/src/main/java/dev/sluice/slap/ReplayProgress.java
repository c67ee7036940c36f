package dev.sluice.slap;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How many statements a replay's sessions have taken from the feed (played or not), for sessions
 * waiting to begin until what they found done in the capture is done again
 * ({@link ReplayPlan.Session#endedBefore}). A lock and condition rather than a monitor, so that
 * waiting virtual threads let go of their carriers.
 */
final class ReplayProgress {

    static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final AtomicLong taken = new AtomicLong();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition advanced = lock.newCondition();
    /** The least count a session waits for; no signal is sent below it. */
    private volatile long wanted = Long.MAX_VALUE;

    void took() {
        if (taken.incrementAndGet() >= wanted) {
            lock.lock();
            try {
                wanted = Long.MAX_VALUE;
                advanced.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Waits until {@code count} statements have been taken; false when none was taken for
     * {@link #STALL_NANOS} meanwhile. The counts come from the capture's end times and are right
     * unless its lines were written far out of order; the replay must still never hang on them,
     * so the caller then goes on.
     */
    boolean awaitTaken(long count) throws InterruptedException {
        long seen = taken.get();
        if (seen >= count) {
            return true;
        }
        long since = System.nanoTime();
        lock.lock();
        try {
            while (true) {
                long now = taken.get();
                if (now >= count) {
                    return true;
                }
                if (now != seen) {
                    seen = now;
                    since = System.nanoTime();
                } else if (System.nanoTime() - since > STALL_NANOS) {
                    return false;
                }
                if (count < wanted) {
                    wanted = count;
                }
                // Timed: a count reached between the check and the wait is seen at the next round.
                advanced.await(50, TimeUnit.MILLISECONDS);
            }
        } finally {
            lock.unlock();
        }
    }
}
