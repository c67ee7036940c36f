package dev.sluice.slap;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How many statements a replay's sessions have taken from the feed (played or not), for sessions
 * waiting to begin until what they found done in the capture is done again
 * ({@link ReplayPlan.Session#endedBefore}). A lock and condition rather than a monitor, so that
 * waiting virtual threads let go of their carriers.
 *
 * <p>A statement the replay runs in another order than the capture may wait for a row lock held
 * by a session that itself waits here for that statement to end: nothing moves until the server's
 * lock wait timeout. So the statements in flight are known with the time by which they should
 * have ended (twice their captured duration and a little); once one of them is overdue and
 * nothing else moves, the waiters go on at once, and let the lock holder finish.
 */
final class ReplayProgress {

    static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final AtomicLong taken = new AtomicLong();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition advanced = lock.newCondition();
    /** The least count a session waits for; no signal is sent below it. */
    private volatile long wanted = Long.MAX_VALUE;
    /** Per session playing a statement, when (System.nanoTime) it should have ended. */
    private final Map<Object, Long> inFlight = new ConcurrentHashMap<>();

    /** Why a wait ended before its count was reached. */
    enum Stall { NONE, OVERDUE, NO_PROGRESS }

    static final long OVERDUE_SLACK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** {@code player} sends a statement that took {@code capturedMicros} in the capture. */
    void playing(Object player, long capturedMicros) {
        inFlight.put(player, System.nanoTime() + 2 * TimeUnit.MICROSECONDS.toNanos(capturedMicros) + OVERDUE_SLACK_NANOS);
    }

    /** {@code player}'s statement has ended. */
    void played(Object player) {
        inFlight.remove(player);
    }

    private boolean anyOverdue(long now) {
        for (long due : inFlight.values()) {
            if (now - due > 0) {
                return true;
            }
        }
        return false;
    }

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
     * Waits until {@code count} statements have been taken; {@link Stall#NONE} when they were. It
     * gives up when nothing was taken for {@link #STALL_NANOS}, or sooner when a statement in
     * flight is overdue (see above). The counts come from the capture's end times and are right
     * unless its lines were written far out of order; the replay must still never hang on them,
     * so the caller then goes on.
     */
    Stall awaitTaken(long count) throws InterruptedException {
        long seen = taken.get();
        if (seen >= count) {
            return Stall.NONE;
        }
        long since = System.nanoTime();
        lock.lock();
        try {
            while (true) {
                long now = taken.get();
                if (now >= count) {
                    return Stall.NONE;
                }
                long clock = System.nanoTime();
                if (now != seen) {
                    seen = now;
                    since = clock;
                } else if (clock - since > STALL_NANOS) {
                    return Stall.NO_PROGRESS;
                } else if (clock - since > OVERDUE_SLACK_NANOS && anyOverdue(clock)) {
                    return Stall.OVERDUE;
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
