package dev.sluice.slap;

/**
 * Counts, line by line through a capture, how many statements had ended when each one started: the
 * statements it may have depended on (the schema a session logs into, the row a read finds). A
 * capture is written in the order responses ended, so the statements still running when one
 * started are among the last lines before it; the search goes back until {@link #SETTLED} lines
 * in a row had ended by then, or {@link #RECENT} lines at most.
 */
final class EndedBefore {

    private static final int RECENT = 4096;
    private static final int SETTLED = 256;

    private final long[] ends = new long[RECENT];
    private long lines;

    /** Of the lines added so far, how many had ended by {@code startMicros}. */
    long at(long startMicros) {
        long running = 0;
        int settled = 0;
        for (long i = lines - 1; i >= Math.max(0, lines - RECENT) && settled < SETTLED; i--) {
            if (ends[(int) (i % RECENT)] > startMicros) {
                running++;
                settled = 0;
            } else {
                settled++;
            }
        }
        return lines - running;
    }

    void add(CapturedEvent event) {
        ends[(int) (lines % RECENT)] = event.timeMicros() + event.durationMicros();
        lines++;
    }
}
