package dev.sluice.slap;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * One statement of a comparison (a command and digest): how often it ran on both servers, how
 * often their answers differed, each side's latencies, and the first difference seen.
 *
 * @param text       the normalized statement (its text when the capture has no digest text)
 * @param compared   executions played on both servers
 * @param differing  executions whose answers differed
 * @param orderOnly  of those, the ones with the same rows in another order (under ORDER BY)
 * @param latencyA   microseconds on the first server (-h/-P)
 * @param latencyB   microseconds on the second (--compare)
 * @param first      the first execution that differed, or null
 */
public record DigestComparison(String command, String digest, String text, long compared, long differing,
                               long orderOnly, Histogram latencyA, Histogram latencyB, Example first) {

    /** An execution that differed: where it came from, what it ran, and how the answers differed. */
    public record Example(long session, String sql, List<Object> params, String difference) {
    }

    public double p50A() {
        return percentile(latencyA, 50);
    }

    public double p99A() {
        return percentile(latencyA, 99);
    }

    public double p50B() {
        return percentile(latencyB, 50);
    }

    public double p99B() {
        return percentile(latencyB, 99);
    }

    /** How many times slower B's p99 is than A's (0.5: twice as fast); NaN when either has none. */
    public double p99Ratio() {
        return ratio(p99B(), p99A());
    }

    public double p50Ratio() {
        return ratio(p50B(), p50A());
    }

    /** Total time on the first server, in microseconds: what the reports rank by. */
    public long totalMicrosA() {
        return latencyA.getTotalCount() == 0 ? 0 : (long) (latencyA.getMean() * latencyA.getTotalCount());
    }

    /** Milliseconds. */
    private static double percentile(Histogram h, double p) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(p) / 1000.0;
    }

    private static double ratio(double b, double a) {
        return Double.isNaN(a) || Double.isNaN(b) || a == 0 ? Double.NaN : b / a;
    }
}
