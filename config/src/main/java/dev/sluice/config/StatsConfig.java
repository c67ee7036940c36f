package dev.sluice.config;

/**
 * What the proxy counts beyond its always-on per-backend figures.
 *
 * @param digests    keep per-digest figures (normalized statements with count, times, rows, errors)
 * @param maxDigests the most digests kept; the least used go first, and their number is shown
 */
public record StatsConfig(boolean digests, int maxDigests) {

    public static final int DEFAULT_MAX_DIGESTS = 5000;
    public static final int MAX_DIGESTS = 1_000_000;

    public StatsConfig {
        if (maxDigests < 1 || maxDigests > MAX_DIGESTS) {
            throw new IllegalArgumentException("max_digests: " + maxDigests + " is out of range (expected: an integer from 1 to "
                    + MAX_DIGESTS + ")");
        }
    }

    public static StatsConfig defaults() {
        return new StatsConfig(true, DEFAULT_MAX_DIGESTS);
    }
}
