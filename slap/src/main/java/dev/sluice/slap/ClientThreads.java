package dev.sluice.slap;

import java.util.Locale;

/**
 * What each client runs on. Virtual threads let thousands of clients wait on the server without
 * thousands of platform threads; but each blocking read of a virtual thread goes through the
 * JDK's poller and a carrier thread, two wake-ups where a platform thread has one, which measured
 * 53 vs 31 microseconds per primary-key SELECT on the two-core test machine. So by default a
 * run with few clients uses platform threads, as mysqlslap does, and a run with many uses
 * virtual threads.
 */
public enum ClientThreads {
    AUTO, VIRTUAL, PLATFORM;

    /** Up to this many clients, {@link #AUTO} uses platform threads. */
    public static final int AUTO_PLATFORM_LIMIT = 256;

    public boolean virtualFor(int clients) {
        return switch (this) {
            case VIRTUAL -> true;
            case PLATFORM -> false;
            case AUTO -> clients > AUTO_PLATFORM_LIMIT;
        };
    }

    public static ClientThreads parse(String value) {
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new SlapException("--client-threads: '" + value + "' (expected: auto, virtual or platform)", 1);
        }
    }
}
