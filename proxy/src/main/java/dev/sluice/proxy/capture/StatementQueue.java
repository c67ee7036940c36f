package dev.sluice.proxy.capture;

import dev.sluice.proxy.memory.MemoryBudget;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A bounded queue from many event loops to the one writer, without locks, so an event loop never
 * waits for the writer, not even for a lock the writer holds while the scheduler has it off the
 * CPU. D. Vyukov's bounded queue: each slot carries a sequence number that says whose turn it is
 * (a producer's at lap {@code pos}, or the consumer's at {@code pos + 1}); producers claim
 * positions with a CAS. {@code count} bounds the queue at exactly {@code capacity} (the ring is a
 * power of two, at least 2); the statements' bytes are taken from the proxy's {@link MemoryBudget},
 * so a full queue of long statements cannot take gigabytes.
 */
final class StatementQueue {

    private final int capacity;
    private final int mask;
    private final AtomicLongArray sequences;
    private final AtomicReferenceArray<CapturedStatement> slots;
    private final AtomicInteger count = new AtomicInteger();
    private final MemoryBudget budget;
    /** Bytes the queued statements hold, taken from {@link #budget}. */
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong enqueued = new AtomicLong();
    /** Consumer only. */
    private long dequeued;

    StatementQueue(int capacity) {
        this(capacity, MemoryBudget.unlimited());
    }

    StatementQueue(int capacity, MemoryBudget budget) {
        if (capacity < 1 || capacity > 1 << 30) {
            throw new IllegalArgumentException("capacity " + capacity + " (expected: 1 to 2^30)");
        }
        this.capacity = capacity;
        this.budget = budget;
        int size = Math.max(2, Integer.highestOneBit(capacity - 1 == 0 ? 1 : capacity - 1) << 1);
        this.mask = size - 1;
        this.sequences = new AtomicLongArray(size);
        this.slots = new AtomicReferenceArray<>(size);
        for (int i = 0; i < size; i++) {
            sequences.set(i, i);
        }
    }

    /** False, at once, when the queue is full. Any thread. */
    boolean offer(CapturedStatement statement) {
        long weight = weight(statement);
        if (!budget.reserve(weight)) {
            return false;
        }
        if (count.getAndIncrement() >= capacity) {
            count.decrementAndGet();
            budget.release(weight);
            return false;
        }
        bytes.addAndGet(weight);
        long pos = enqueued.get();
        int slot;
        while (true) {
            slot = (int) (pos & mask);
            long turn = sequences.getAcquire(slot) - pos;
            if (turn == 0) {
                if (enqueued.compareAndSet(pos, pos + 1)) {
                    break;
                }
                pos = enqueued.get();
            } else if (turn < 0) {
                // The consumer has not freed this slot yet: full after all.
                count.decrementAndGet();
                bytes.addAndGet(-weight);
                budget.release(weight);
                return false;
            } else {
                pos = enqueued.get();
            }
        }
        slots.setPlain(slot, statement);
        sequences.setRelease(slot, pos + 1);
        return true;
    }

    /** Moves up to {@code max} statements, in order, into {@code into}. Consumer thread only. */
    int drainTo(List<CapturedStatement> into, int max) {
        int moved = 0;
        while (moved < max) {
            int slot = (int) (dequeued & mask);
            if (sequences.getAcquire(slot) != dequeued + 1) {
                // Empty, or the next producer claimed its slot but has not published yet: later.
                break;
            }
            CapturedStatement statement = slots.getPlain(slot);
            into.add(statement);
            slots.setPlain(slot, null);
            long weight = weight(statement);
            bytes.addAndGet(-weight);
            budget.release(weight);
            sequences.setRelease(slot, dequeued + mask + 1);
            dequeued++;
            count.decrementAndGet();
            moved++;
        }
        return moved;
    }

    /** What a queued statement holds, roughly: its copied bytes and the object around them. */
    static long weight(CapturedStatement statement) {
        return 128L + (statement.text == null ? 0 : statement.text.length)
                + (statement.payload == null ? 0 : statement.payload.length);
    }

    /** Bytes the queued statements hold now. */
    long bytes() {
        return bytes.get();
    }

    /** Statements queued now. */
    int size() {
        return Math.max(0, Math.min(capacity, count.get()));
    }
}
