package dev.sluice.slap;

/**
 * The figures of one report interval of a timed client phase: what {@code --report-interval}
 * prints and {@code --report-html} draws.
 *
 * @param endSeconds when the interval ended, in seconds since the phase started
 * @param seconds    how long it lasted
 * @param queries    queries that ended in it
 * @param errors     failed queries and connects in it
 * @param p50Ms      latency percentiles of its queries, in milliseconds (0 when none ended)
 */
public record IntervalPoint(double endSeconds, double seconds, long queries, long errors, double p50Ms, double p95Ms,
                            double p99Ms) {

    public double queriesPerSecond() {
        return seconds > 0 ? queries / seconds : 0;
    }
}
