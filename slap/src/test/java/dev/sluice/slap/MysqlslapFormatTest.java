package dev.sluice.slap;

import org.junit.jupiter.api.Test;

import static dev.sluice.slap.Results.phase;
import static dev.sluice.slap.Results.result;
import static org.assertj.core.api.Assertions.assertThat;

class MysqlslapFormatTest {

    @Test
    void textBlockIsByteForByteMysqlslaps() {
        ConcurrencyResult r = result(null, 1, 1000, phase(186, 1000), phase(232, 1000), phase(167, 1000));
        assertThat(MysqlslapFormat.text(r, "")).isEqualTo("""
                Benchmark
                \tAverage number of seconds to run all queries: 0.195 seconds
                \tMinimum number of seconds to run all queries: 0.167 seconds
                \tMaximum number of seconds to run all queries: 0.232 seconds
                \tNumber of clients running queries: 1
                \tAverage number of queries per client: 1000

                """);
    }

    @Test
    void engineLineOnlyWithAnEngine() {
        ConcurrencyResult r = result("innodb", 50, 20, phase(12_345, 1000));
        assertThat(MysqlslapFormat.text(r, "")).startsWith("Benchmark\n\tRunning for engine innodb\n"
                + "\tAverage number of seconds to run all queries: 12.345 seconds\n");
    }

    @Test
    void averageIsIntegerDivisionOfTruncatedMilliseconds() {
        ConcurrencyResult r = result(null, 2, 5, phase(1, 10), phase(2, 10));
        assertThat(r.avgMillis()).isEqualTo(1);
        assertThat(MysqlslapFormat.seconds(5)).isEqualTo("0.005");
        assertThat(MysqlslapFormat.seconds(60_007)).isEqualTo("60.007");
        assertThat(MysqlslapFormat.seconds(0)).isEqualTo("0.000");
    }

    @Test
    void csvLineHasEngineLoadTypeTimesClientsAndQueries() {
        assertThat(MysqlslapFormat.csv(result("innodb", 1, 1000, phase(195, 1000))))
                .isEqualTo("innodb,mixed,0.195,0.195,0.195,1,1000\n");
        assertThat(MysqlslapFormat.csv(result(null, 25, 0, phase(7, 0), phase(9, 0))))
                .isEqualTo(",mixed,0.008,0.007,0.009,25,0\n");
    }

    @Test
    void percentilesJoinTheBlockBeforeItsBlankLine() {
        ConcurrencyResult r = result(null, 1, 4, phase(1000, 4, 100, 200, 300, 1500));
        String text = MysqlslapFormat.text(r, MysqlslapFormat.percentiles(r));
        assertThat(text).endsWith("\tAverage number of queries per client: 4\n"
                + "\tLatency per query (ms): p50 0.200, p95 1.500, p99 1.500, max 1.500\n"
                + "\tQueries per second: 4.0\n\n");
    }

    @Test
    void problemsNameCodesCountsAndMessages() {
        ConcurrencyResult r = result(null, 50, 20, Results.failing(100, 990, "1213", 10));
        assertThat(MysqlslapFormat.problems(r)).isEqualTo(
                "slap: concurrency 50: 10 of 1000 queries failed: 1213 x10 (Deadlock found when trying to get lock)\n"
                        + "slap: concurrency 50: 2 connects failed (after 10 attempts each): 1040 x2 (Too many connections)\n");
        assertThat(MysqlslapFormat.problems(result(null, 1, 1, phase(1, 1)))).isEmpty();
    }
}
