package dev.sluice.proxy.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencyRecorderTest {

    @Test
    void subMillisecondLatenciesStayExactAndLongerOnesWithinOnePercent() {
        LatencyRecorder latency = new LatencyRecorder();
        for (int i = 0; i < 900; i++) {
            latency.record(123_000);
        }
        for (int i = 0; i < 100; i++) {
            latency.record(45_678_000);
        }
        latency.record(3_210_987_000L);

        Histogram total = latency.snapshotTotal();
        assertThat(total.getTotalCount()).isEqualTo(1001);
        assertThat(total.getValueAtPercentile(50)).isEqualTo(123);
        assertThat((double) total.getValueAtPercentile(95)).isCloseTo(45_678, within(457.0));
        assertThat((double) total.getMaxValue()).isCloseTo(3_210_987, within(32_110.0));
        assertThat(latency.snapshotRecent().getTotalCount()).isEqualTo(1001);
    }

    @Test
    void aBackendsHistogramsStayUnderHalfAMegabyte() {
        // Fourteen histograms per backend (recorder pair, interval, total, ten seconds): at three
        // significant digits they took 2.6 MB of an idle proxy's heap for every backend.
        Histogram one = new LatencyRecorder().snapshotRecent();
        assertThat(one.getEstimatedFootprintInBytes() * 14).isLessThan(512 * 1024);
    }

    @Test
    void resetForgetsTheRunAndTheWindow() {
        LatencyRecorder latency = new LatencyRecorder();
        latency.record(1_000_000);
        latency.roll();
        latency.reset();
        assertThat(latency.snapshotTotal().getTotalCount()).isZero();
        assertThat(latency.snapshotRecent().getTotalCount()).isZero();
    }
}
