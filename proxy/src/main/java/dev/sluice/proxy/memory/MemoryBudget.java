package dev.sluice.proxy.memory;

import io.netty.util.internal.PlatformDependent;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes the proxy may hold of what it buffers on behalf of clients, all sessions together:
 * split-mode commands of 16 MiB or more while they arrive, and capture events waiting for the
 * writer. Each alone is bounded per session or per queue; together, without one bound, a few
 * clients sending large commands while capture falls behind could take the whole JVM's memory.
 * Whoever would pass the limit is refused (a command with ERR 1153, a capture event dropped and
 * counted), never waits.
 */
public final class MemoryBudget {

    private final long limit;
    private final AtomicLong held = new AtomicLong();

    public MemoryBudget(long limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit " + limit + " (expected: > 0)");
        }
        this.limit = limit;
    }

    /** No bound: for queues whose tests are about something else. */
    public static MemoryBudget unlimited() {
        return new MemoryBudget(Long.MAX_VALUE);
    }

    /**
     * {@code configured}, but at most a quarter of the JVM's heap or direct memory, whichever is
     * smaller: commands are held in direct buffers, capture events on the heap.
     */
    public static MemoryBudget upTo(long configured) {
        long jvm = Math.min(Runtime.getRuntime().maxMemory(), PlatformDependent.maxDirectMemory());
        return new MemoryBudget(Math.max(1, Math.min(configured, jvm / 4)));
    }

    /** Takes {@code bytes} more, or nothing and false when that would pass the limit. Any thread. */
    public boolean reserve(long bytes) {
        if (held.addAndGet(bytes) > limit) {
            held.addAndGet(-bytes);
            return false;
        }
        return true;
    }

    public void release(long bytes) {
        held.addAndGet(-bytes);
    }

    public long held() {
        return held.get();
    }

    public long limit() {
        return limit;
    }
}
