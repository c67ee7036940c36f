package dev.sluice.proxy.mirror;

import dev.sluice.proxy.memory.MemoryBudget;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The copies waiting for the shadow, bounded in count and in bytes (the bytes also taken from the
 * proxy's {@link MemoryBudget}): a copy that would pass either bound is dropped and counted at
 * once, so an event loop never waits for the shadow. Each copy goes to the lane its session
 * hashes to, so one session's copies reach the shadow in the order the client ran them.
 */
final class MirrorQueue {

    private final ShadowLane[] lanes;
    private final int maxCount;
    private final long maxBytes;
    private final MemoryBudget budget;
    private final MirrorStats stats;
    private final AtomicInteger count = new AtomicInteger();
    private final AtomicLong bytes = new AtomicLong();

    MirrorQueue(ShadowLane[] lanes, int maxCount, long maxBytes, MemoryBudget budget, MirrorStats stats) {
        this.lanes = lanes;
        this.maxCount = maxCount;
        this.maxBytes = maxBytes;
        this.budget = budget;
        this.stats = stats;
    }

    /** Queues {@code copy}, or drops and counts it when a bound would be passed. Any thread; never waits. */
    void offer(MirrorCopy copy) {
        int weight = copy.weight();
        if (count.incrementAndGet() > maxCount) {
            count.decrementAndGet();
            stats.dropped();
            return;
        }
        if (bytes.addAndGet(weight) > maxBytes || !budget.reserve(weight)) {
            bytes.addAndGet(-weight);
            count.decrementAndGet();
            stats.dropped();
            return;
        }
        stats.queued();
        lanes[(int) Math.floorMod(copy.sessionId, (long) lanes.length)].add(copy);
    }

    /** A lane took {@code copy} off the queue: its room is free again. */
    void taken(MirrorCopy copy) {
        int weight = copy.weight();
        count.decrementAndGet();
        bytes.addAndGet(-weight);
        budget.release(weight);
    }

    int size() {
        return count.get();
    }

    long bytes() {
        return bytes.get();
    }
}
