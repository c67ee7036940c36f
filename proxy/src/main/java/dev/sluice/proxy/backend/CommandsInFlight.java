package dev.sluice.proxy.backend;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Commands sent to backends whose responses have not ended, over the whole process. The event
 * loops read it to tell a lone client's serial round trips (at most one command out) from real
 * concurrency, where they must not poll (see {@code SpinThenBlock}).
 */
public final class CommandsInFlight {

    private static final AtomicInteger COUNT = new AtomicInteger();

    private CommandsInFlight() {
    }

    public static int count() {
        return COUNT.get();
    }

    static void sent() {
        COUNT.incrementAndGet();
    }

    static void ended(int commands) {
        if (commands > 0) {
            COUNT.addAndGet(-commands);
        }
    }
}
