package dev.sluice.proxy.backend;

import java.util.concurrent.atomic.LongAdder;

/**
 * Commands sent to backends whose responses have not ended, over the whole process. The event
 * loops read it to tell a lone client's serial round trips (at most one command out) from real
 * concurrency, where they must not poll (see {@code SpinBeforeBlocking}). Every command adds and
 * subtracts one from every event loop, so the count is striped (each loop's updates land in a
 * cell of its own instead of one cache line all loops take turns owning); it is read once per
 * loop iteration, where summing a few cells costs less than the writes saved.
 */
public final class CommandsInFlight {

    private static final LongAdder COUNT = new LongAdder();

    private CommandsInFlight() {
    }

    public static int count() {
        return (int) COUNT.sum();
    }

    static void sent() {
        COUNT.increment();
    }

    static void ended(int commands) {
        if (commands > 0) {
            COUNT.add(-commands);
        }
    }
}
