package dev.sluice.proxy.backend;

import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Ticker;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The sessions waiting for room under one backend's max_connections, served in order. The only
 * lock of a pool, taken only while someone waits or the cap is reached: {@link #isEmpty()} is
 * read without it. A waiter fails once no connection came free for the queue timeout (a stalled
 * backend), however long the line ahead of it.
 */
final class PoolQueue {

    /**
     * A waiter on another event loop than a freed connection's gets that connection's slot (the
     * connection closes, the waiter opens its own) instead of a same-loop waiter once it has waited
     * this much longer: connections then move to the loop that needs them, and no waiter starves,
     * without a login per hand-over while both loops' waiters are served alike.
     */
    private static final long UNFAIR_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<PoolWaiter> waiters = new ArrayDeque<>();
    /** The queue's length, read without the lock. */
    private volatile int size;
    /** When the queue last moved: a connection or slot went to a waiter. */
    private volatile long progressNanos;
    /** Set on reload; read under the lock or by the loops' timeout tasks. */
    private volatile int limit;
    private volatile Duration timeout;
    private final Function<String, BackendLoginException> capReached;
    private final Supplier<BackendLoginException> shutDown;
    private boolean closed;
    private final Ticker ticker;

    /**
     * {@code capReached}: the error of a refused or expired wait, given what happened;
     * {@code shutDown}: the error of a wait after {@link #close}.
     */
    PoolQueue(int limit, Duration timeout, Function<String, BackendLoginException> capReached,
              Supplier<BackendLoginException> shutDown, Ticker ticker) {
        this.ticker = ticker;
        this.progressNanos = ticker.nanoTime();
        this.limit = limit;
        this.timeout = timeout;
        this.capReached = capReached;
        this.shutDown = shutDown;
    }

    /** The clock waits are measured by: when a waiter starts waiting. */
    long now() {
        return ticker.nanoTime();
    }

    void limits(int newLimit, Duration newTimeout) {
        limit = newLimit;
        timeout = newTimeout;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /**
     * Under the lock: a slot from {@code slot} when no one waits ahead (true), else the waiter
     * joins the queue, where {@code makeRoom} may still find it a slot (an idle connection closing
     * for it, which grants it) before the queue's own limits apply. The future completes when the
     * waiter got a slot (true) or a connection handed over (false), or fails with the cap's error.
     */
    Future<Boolean> join(PoolWaiter waiter, BooleanSupplier slot, Predicate<PoolWaiter> makeRoom) {
        lock.lock();
        try {
            if (closed) {
                return waiter.loop.newFailedFuture(shutDown.get());
            }
            if (waiters.isEmpty() && slot.getAsBoolean()) {
                return waiter.loop.newSucceededFuture(true);
            }
            // Queued before room is looked for: a connection given back meanwhile on another
            // loop then sees this waiter (see BackendPool#makeIdle).
            add(waiter);
            if (makeRoom.test(waiter)) {
                remove(waiter);
                return waiter.granted;
            }
            if (waiters.size() > limit || timeout.isZero()) {
                remove(waiter);
                return waiter.loop.newFailedFuture(capReached.apply("and " + waiters.size() + " sessions already wait"));
            }
        } finally {
            lock.unlock();
        }
        armTimeout(waiter, timeout.toNanos());
        return waiter.granted;
    }

    /** A waiter whose caller gave up (a KILL QUERY, its session ended) leaves the queue. */
    void withdraw(PoolWaiter waiter) {
        if (removeLocked(waiter)) {
            waiter.cancelTimeout();
            waiter.granted.tryFailure(new CancellationException("the caller stopped waiting"));
        }
    }

    /**
     * Who gets {@code connection}, given back while sessions wait: the longest waiter it can serve
     * as it is (handed over directly), unless that one is on another footing than the longest
     * waiter of all by more than {@link #UNFAIR_NANOS}, who then gets its slot (the connection
     * closes). Null when no one waits any more.
     */
    Grant serve(BackendConnection connection) {
        lock.lock();
        try {
            PoolWaiter oldest = waiters.peekFirst();
            if (oldest == null) {
                return null;
            }
            PoolWaiter taker = oldest.takes(connection) ? oldest : firstTaking(connection);
            boolean direct = taker != null && (taker == oldest || taker.sinceNanos - oldest.sinceNanos < UNFAIR_NANOS);
            PoolWaiter waiter = direct ? taker : oldest;
            remove(waiter);
            progressNanos = ticker.nanoTime();
            waiter.cancelTimeout();
            return new Grant(waiter, direct);
        } finally {
            lock.unlock();
        }
    }

    /** {@code direct}: the waiter takes the connection itself; else its slot, for a connection of its own. */
    record Grant(PoolWaiter waiter, boolean direct) {
    }

    /** The longest waiter, taken out for a slot that came free; null when no one waits (then {@code none} runs, under the lock). */
    PoolWaiter pollFor(Runnable none) {
        lock.lock();
        try {
            PoolWaiter waiter = waiters.pollFirst();
            size = waiters.size();
            if (waiter == null) {
                none.run();
                return null;
            }
            progressNanos = ticker.nanoTime();
            waiter.cancelTimeout();
            return waiter;
        } finally {
            lock.unlock();
        }
    }

    /** No one may wait from now on; everyone waiting is taken out (the pool closes). */
    List<PoolWaiter> close() {
        lock.lock();
        try {
            closed = true;
            List<PoolWaiter> all = new ArrayList<>(waiters);
            waiters.clear();
            size = 0;
            return all;
        } finally {
            lock.unlock();
        }
    }

    private PoolWaiter firstTaking(BackendConnection connection) {
        for (PoolWaiter candidate : waiters) {
            if (candidate.takes(connection)) {
                return candidate;
            }
        }
        return null;
    }

    private void add(PoolWaiter waiter) {
        waiters.addLast(waiter);
        size = waiters.size();
    }

    private void remove(PoolWaiter waiter) {
        waiters.remove(waiter);
        size = waiters.size();
    }

    private boolean removeLocked(PoolWaiter waiter) {
        lock.lock();
        try {
            boolean removed = waiters.remove(waiter);
            size = waiters.size();
            return removed;
        } finally {
            lock.unlock();
        }
    }

    private void armTimeout(PoolWaiter waiter, long delayNanos) {
        waiter.timeout = waiter.loop.schedule(() -> {
            Duration limitNow = timeout;
            long stalled = ticker.nanoTime() - progressNanos;
            if (stalled < limitNow.toNanos()) {
                armTimeout(waiter, limitNow.toNanos() - stalled);
                return;
            }
            if (removeLocked(waiter)) {
                waiter.granted.tryFailure(capReached.apply("and no connection came free within "
                        + limitNow.toMillis() + " ms"));
            }
        }, delayNanos, TimeUnit.NANOSECONDS);
    }
}
