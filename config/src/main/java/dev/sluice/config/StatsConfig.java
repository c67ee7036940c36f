package dev.sluice.config;

/**
 * What the proxy counts beyond its always-on per-backend figures.
 *
 * @param digests        keep per-digest figures (normalized statements with count, times, rows, errors)
 * @param maxDigests     the most digests kept; the least used go first, and their number is shown
 * @param metricsDigests how many digests (those with the most total time) get a latency histogram
 *                       on /metrics; bounded, as each costs Prometheus some twenty series
 */
public record StatsConfig(boolean digests, int maxDigests, int metricsDigests) {

    public static final int DEFAULT_MAX_DIGESTS = 5000;
    public static final int MAX_DIGESTS = 1_000_000;
    public static final int DEFAULT_METRICS_DIGESTS = 20;
    public static final int MAX_METRICS_DIGESTS = 1000;

    public StatsConfig {
        if (maxDigests < 1 || maxDigests > MAX_DIGESTS) {
            throw new IllegalArgumentException("max_digests: " + maxDigests + " is out of range (expected: an integer from 1 to "
                    + MAX_DIGESTS + ")");
        }
        if (metricsDigests < 0 || metricsDigests > MAX_METRICS_DIGESTS) {
            throw new IllegalArgumentException("metrics_digests: " + metricsDigests
                    + " is out of range (expected: an integer from 0 to " + MAX_METRICS_DIGESTS + ")");
        }
    }

    public StatsConfig(boolean digests, int maxDigests) {
        this(digests, maxDigests, DEFAULT_METRICS_DIGESTS);
    }

    public static StatsConfig defaults() {
        return new StatsConfig(true, DEFAULT_MAX_DIGESTS, DEFAULT_METRICS_DIGESTS);
    }
}
