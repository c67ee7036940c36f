package dev.sluice.proxy.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

class LogHistogramTest {

    @Test
    void smallValuesAreExactAndLargeOnesWithinSixPercent() {
        for (long v = 0; v < 8; v++) {
            assertThat(LogHistogram.representative(LogHistogram.bucket(v))).isEqualTo(v);
        }
        for (int i = 0; i < 100_000; i++) {
            long value = 8 + ThreadLocalRandom.current().nextLong(1L << 40);
            long shown = LogHistogram.representative(LogHistogram.bucket(value));
            assertThat((double) Math.abs(shown - value) / value).as("value %d shown as %d", value, shown)
                    .isLessThanOrEqualTo(0.0625);
        }
        assertThat(LogHistogram.bucket(Long.MAX_VALUE)).isLessThan(LogHistogram.BUCKETS);
    }

    @Test
    void percentilesOfAKnownDistribution() {
        LogHistogram histogram = new LogHistogram();
        assertThat(histogram.percentile(95)).isZero();
        for (int i = 1; i <= 1000; i++) {
            histogram.record(i * 100L);
        }
        assertThat(histogram.percentile(95)).isBetween(95_000L - 6_000, 95_000L + 6_000);
        assertThat(histogram.percentile(50)).isBetween(50_000L - 3_200, 50_000L + 3_200);
        assertThat(histogram.percentile(100)).isBetween(100_000L - 6_300, 100_000L + 6_300);
        histogram.record(-5);
        assertThat(histogram.percentile(0)).isZero();
    }
}
