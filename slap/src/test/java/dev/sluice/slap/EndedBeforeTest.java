package dev.sluice.slap;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EndedBeforeTest {

    private static CapturedEvent statement(long startMicros, long durationMicros) {
        return new CapturedEvent(startMicros, 1, "app", null, null, null, "Query", -1, "DO 1", null, null, null, null,
                durationMicros, 0, 0, 0, 0, false, null);
    }

    @Test
    void countsTheStatementsThatHadEndedWhenOneStarted() {
        EndedBefore ended = new EndedBefore();
        assertThat(ended.at(0)).isZero();
        // In the order they ended: a long one that started first ends last.
        ended.add(statement(10, 5));     // 10..15
        ended.add(statement(12, 8));     // 12..20
        ended.add(statement(1, 29));     // 1..30

        assertThat(ended.at(16)).isEqualTo(1);
        assertThat(ended.at(25)).isEqualTo(2);
        assertThat(ended.at(30)).isEqualTo(3);
        assertThat(ended.at(5)).isZero();
    }

    @Test
    void onlyTheLatestLinesAreSearched() {
        EndedBefore ended = new EndedBefore();
        for (int i = 0; i < 10_000; i++) {
            ended.add(statement(i * 10L, 5));
        }
        assertThat(ended.at(100_000)).isEqualTo(10_000);
        // Started while the last two were running: 9,998 had ended.
        assertThat(ended.at(99_982)).isEqualTo(9_998);
    }
}
