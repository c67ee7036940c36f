package dev.sluice.proxy.backend;

import io.netty.util.concurrent.FastThreadLocal;
import java.util.concurrent.atomic.LongAdder;

/**
 * Commands sent to backends whose responses have not ended, over one proxy's event loops. The
 * loops read it to tell a lone client's serial round trips (at most one command out) from real
 * concurrency, where they must not poll (see {@code SpinBeforeBlocking}). Each proxy has its own:
 * a loop names it for its thread when it starts ({@link #countOnThisThread}), and the backend
 * connections, which run on their loop, count into the one of the thread they run on; two proxies
 * in one JVM do not see each other's traffic. Every command adds and subtracts one from every
 * loop, so the count is striped (each loop's updates land in a cell of its own instead of one
 * cache line all loops take turns owning); it is read once per loop iteration, where summing a
 * few cells costs less than the writes saved.
 */
public final class CommandsInFlight {

    private static final FastThreadLocal<CommandsInFlight> THIS_LOOPS = new FastThreadLocal<>();

    private final LongAdder count = new LongAdder();

    public int count() {
        return (int) count.sum();
    }

    /** From now on, commands sent by connections on the calling thread (an event loop) count here. */
    public void countOnThisThread() {
        THIS_LOOPS.set(this);
    }

    static void sent() {
        CommandsInFlight counter = THIS_LOOPS.getIfExists();
        if (counter != null) {
            counter.count.increment();
        }
    }

    static void ended(int commands) {
        CommandsInFlight counter = THIS_LOOPS.getIfExists();
        if (counter != null && commands > 0) {
            counter.count.add(-commands);
        }
    }
}
