package dev.sluice.proxy.stats;

import static org.assertj.core.api.Assertions.assertThat;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class DigestTableTest {

    @Test
    void keepsFiguresPerDigest() {
        DigestTable table = new DigestTable(10, true);
        DigestStats select = table.add(1, "SELECT ?", 1000);
        assertThat(table.find(1)).isSameAs(select);
        assertThat(table.add(1, "ignored: already there", 2000)).isSameAs(select);
        select.record(2_000_000, 1, 0, false, 1500);
        select.record(4_000_000, 0, 0, true, 2500);
        assertThat(select.count()).isEqualTo(2);
        assertThat(select.sumNanos()).isEqualTo(6_000_000);
        assertThat(select.minNanos()).isEqualTo(2_000_000);
        assertThat(select.maxNanos()).isEqualTo(4_000_000);
        assertThat(select.rowsSent()).isEqualTo(1);
        assertThat(select.errors()).isEqualTo(1);
        assertThat(select.firstSeenMillis()).isEqualTo(1000);
        assertThat(select.lastSeenMillis()).isEqualTo(2500);
        assertThat(select.p95Micros()).isBetween(3750L, 4250L);
    }

    @Test
    void staysWithinItsBoundAndCountsWhatItDrops() {
        DigestTable table = new DigestTable(50, true);
        for (int i = 0; i < 500; i++) {
            table.add(i, "SELECT " + i, 0);
        }
        Awaitility.await().until(() -> table.size() <= 50 && table.evicted() == 500 - table.size());
        assertThat(table.snapshot()).hasSizeLessThanOrEqualTo(50);
        table.reset();
        assertThat(table.size()).isZero();
        assertThat(table.evicted()).isZero();
    }
}
