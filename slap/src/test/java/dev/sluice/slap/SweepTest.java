package dev.sluice.slap;

import org.junit.jupiter.api.Test;

import static dev.sluice.slap.Results.phase;
import static dev.sluice.slap.Results.result;
import static org.assertj.core.api.Assertions.assertThat;

class SweepTest {

    /** A row of {@code clients} that ran 1000 queries in {@code millis}. */
    private static ConcurrencyResult row(int clients, long millis) {
        return result(null, clients, 1000 / clients, phase(millis, 1000, 500));
    }

    @Test
    void stopsWhenDoublingGainsLessThanFivePercentAndNamesTheKnee() {
        Sweep sweep = new Sweep(1024);
        assertThat(sweep.accept(row(1, 1000))).isTrue();
        assertThat(sweep.accept(row(2, 520))).isTrue();
        assertThat(sweep.accept(row(4, 300))).isTrue();
        assertThat(sweep.accept(row(8, 290))).isFalse();
        SweepResult result = sweep.result(null);
        assertThat(result.knee()).isEqualTo(4);
        assertThat(result.stopReason()).isEqualTo("throughput grew +3.4% from 4 to 8 clients");
        assertThat(Sweep.table(result)).contains("Knee: 4 clients, the highest concurrency still gaining throughput")
                .contains("       1       1000.0        -        1.000      0.500        0");
    }

    @Test
    void stopsAtTheFirstErrors() {
        Sweep sweep = new Sweep(1024);
        sweep.accept(row(1, 1000));
        assertThat(sweep.accept(result(null, 2, 500, Results.failing(400, 1000, "1040", 1)))).isFalse();
        SweepResult result = sweep.result("innodb");
        assertThat(result.knee()).isEqualTo(1);
        assertThat(result.stopReason()).isEqualTo("errors appeared at 2 clients");
        assertThat(Sweep.table(result)).startsWith("Sweep for engine innodb:");
    }

    @Test
    void stopsAtTheMaximum() {
        Sweep sweep = new Sweep(2);
        sweep.accept(row(1, 1000));
        assertThat(sweep.accept(row(2, 400))).isFalse();
        assertThat(sweep.result(null).knee()).isEqualTo(2);
        assertThat(sweep.result(null).stopReason()).isEqualTo("reached the sweep maximum of 2 clients");
    }
}
