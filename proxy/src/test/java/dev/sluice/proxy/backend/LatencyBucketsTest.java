package dev.sluice.proxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class LatencyBucketsTest {

    private static final double[] BOUNDS = LatencyBuckets.boundsSeconds();

    @Test
    void boundsSpanFiftyMicrosecondsToAMinuteAscending() {
        assertThat(BOUNDS[0]).isEqualTo(0.00005);
        assertThat(BOUNDS[BOUNDS.length - 1]).isEqualTo(60.0);
        for (int i = 1; i < BOUNDS.length; i++) {
            assertThat(BOUNDS[i]).as("bound %d", i).isGreaterThan(BOUNDS[i - 1]);
        }
    }

    @Test
    void aValueOnABoundCountsInThatBoundsBucketAndOneNanosecondMoreInTheNext() {
        for (int i = 0; i < BOUNDS.length; i++) {
            long bound = Math.round(BOUNDS[i] * 1e9);
            assertThat(LatencyBuckets.bucket(bound)).as("%d ns", bound).isEqualTo(i);
            assertThat(LatencyBuckets.bucket(bound + 1)).as("%d ns", bound + 1).isEqualTo(i + 1);
        }
        assertThat(LatencyBuckets.bucket(0)).isZero();
        assertThat(LatencyBuckets.bucket(Long.MAX_VALUE)).isEqualTo(BOUNDS.length);
    }

    @Test
    void countsSumAndReset() {
        LatencyBuckets buckets = new LatencyBuckets();
        buckets.record(30_000);           // 30 µs: le 0.00005
        buckets.record(150_000);          // 150 µs: le 0.0002
        buckets.record(150_000);
        buckets.record(2_500_000_000L);   // 2.5 s: le 5
        buckets.record(90_000_000_000L);  // 90 s: past the last bound
        buckets.record(-7);               // a clock that went back counts as 0

        long[] counts = buckets.counts();
        assertThat(counts).hasSize(BOUNDS.length + 1);
        assertThat(counts[0]).isEqualTo(2);
        assertThat(counts[2]).isEqualTo(2);
        assertThat(counts[indexOf(5)]).isEqualTo(1);
        assertThat(counts[BOUNDS.length]).isEqualTo(1);
        assertThat(buckets.count()).isEqualTo(6);
        assertThat(buckets.sumNanos()).isEqualTo(30_000 + 300_000 + 2_500_000_000L + 90_000_000_000L);

        buckets.reset();
        assertThat(buckets.count()).isZero();
        assertThat(buckets.sumNanos()).isZero();
    }

    @Test
    void recordsFromManyThreadsAreAllCounted() throws Exception {
        LatencyBuckets buckets = new LatencyBuckets();
        int threads = 4;
        int each = 50_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        buckets.record(1_000L * (i % 1000));
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(buckets.count()).isEqualTo((long) threads * each);
        assertThat(buckets.sumNanos()).isEqualTo(threads * (each / 1000L) * 1_000L * (999L * 1000 / 2));
    }

    private static int indexOf(double bound) {
        for (int i = 0; i < BOUNDS.length; i++) {
            if (BOUNDS[i] == bound) {
                return i;
            }
        }
        throw new AssertionError("no bound " + bound);
    }
}
