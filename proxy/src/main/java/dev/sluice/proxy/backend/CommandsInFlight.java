package dev.sluice.proxy.backend;

import java.util.concurrent.atomic.LongAdder;

/**
 * Commands sent to backends whose responses have not ended yet, over one proxy's event loops. The
 * loops read it to tell a lone client's serial round trips (at most one command out) from real
 * concurrency, where they must not poll (see {@code SpinBeforeBlocking}). Each proxy has its own,
 * handed to its connector and through it to every backend connection it opens, so two proxies in
 * one JVM do not see each other's traffic. Every command adds and subtracts one from every loop,
 * so the count is striped (each loop's updates land in a cell of its own instead of one cache line
 * all loops take turns owning); it is read once per loop iteration, where summing a few cells
 * costs less than the writes saved.
 */
public final class CommandsInFlight {

    private final LongAdder count = new LongAdder();

    public int count() {
        return (int) count.sum();
    }

    void sent() {
        count.increment();
    }

    void ended(int commands) {
        if (commands > 0) {
            count.add(-commands);
        }
    }
}
