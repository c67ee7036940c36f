package dev.sluice.slap;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.sluice.slap.Results.phase;
import static dev.sluice.slap.Results.result;
import static org.assertj.core.api.Assertions.assertThat;

class ReportingTest {

    @Test
    void intervalLineHasSysbenchsLayout() {
        Histogram latency = new Histogram(3);
        for (int i = 1; i <= 100; i++) {
            latency.recordValue(i * 100L);
        }
        IntervalReporter.Snapshot last = new IntervalReporter.Snapshot(0, 1000, 200, 100, -1, 0, 0);
        IntervalReporter.Snapshot now = new IntervalReporter.Snapshot(0, 12_372, 3449, 1725, -1, 5, 1);
        assertThat(IntervalReporter.intervalLine(10, 8, now, last, 10.0, latency)).isEqualTo(
                "[ 10s ] thds: 8 tps: 1624.60 qps: 1624.60 (r/w/o: 1137.20/324.90/162.50) lat (ms,95%): 9.50"
                        + " err/s: 0.50 reconn/s: 0.10");
        IntervalReporter.Snapshot committed = new IntervalReporter.Snapshot(0, 12_372, 3449, 1725, 400, 5, 1);
        IntervalReporter.Snapshot before = new IntervalReporter.Snapshot(0, 1000, 200, 100, 0, 0, 0);
        assertThat(IntervalReporter.intervalLine(1, 8, committed, before, 10.0, new Histogram(3)))
                .startsWith("[ 1s ] thds: 8 tps: 40.00 qps: 1624.60").contains("lat (ms,95%): 0.00");
    }

    @Test
    void rateGateSpacesDueTimesEvenlyFromTheStart() {
        long start = System.nanoTime() - 10_000_000_000L;
        RateGate gate = new RateGate(start, 4);
        // All due times are in the past, so nothing waits: each is start + i * 250 ms.
        assertThat(List.of(gate.acquire(), gate.acquire(), gate.acquire()))
                .containsExactly(start, start + 250_000_000L, start + 500_000_000L);
    }

    @Test
    void jsonHoldsEveryFigure() {
        SlapOptions options = SlapOptions.builder().autoGenerateSql(true).concurrency(1, 2).iterations(2).build();
        ConcurrencyResult run = result("innodb", 2, 50, phase(100, 100, 150, 250), Results.failing(120, 98, "1213", 2));
        String json = JsonReport.render(options, new SlapResult(List.of(run),
                List.of(new SweepResult(null, List.of(run), 2, "reached the sweep maximum of 2 clients"))));
        Map<String, Object> report = object(JsonText.parse(json));
        assertThat(report.get("tool")).isEqualTo("sluice slap");
        Map<String, Object> given = object(report.get("options"));
        assertThat(given.get("concurrency")).isEqualTo(List.of(1L, 2L));
        assertThat(given.get("load_type")).isEqualTo("mixed");
        Map<String, Object> first = object(((List<?>) report.get("runs")).get(0));
        assertThat(first).containsEntry("engine", "innodb").containsEntry("load_type", "mixed")
                .containsEntry("clients", 2L).containsEntry("queries_per_client", 50L)
                .containsEntry("avg_seconds", 0.11).containsEntry("min_seconds", 0.1).containsEntry("max_seconds", 0.12)
                .containsEntry("total_queries", 198L);
        assertThat(object(first.get("latency_ms"))).containsEntry("p95", 0.25);
        assertThat(first.get("errors")).isEqualTo(Map.of("1213",
                Map.of("count", 2L, "message", "Deadlock found when trying to get lock")));
        assertThat(object(object(first.get("failed_connects")).get("1040"))).containsEntry("count", 2L);
        assertThat(object(((List<?>) first.get("iterations")).get(0))).containsEntry("seconds", 0.1);
        assertThat(object(((List<?>) report.get("sweeps")).get(0))).containsEntry("knee", 2L)
                .containsEntry("clients", List.of(2L));
        // Seconds and latencies carry three decimals in the text, as in mysqlslap's output.
        assertThat(json).containsPattern("\"avg_seconds\" ?: ?0\\.110\\b").containsPattern("\"p95\" ?: ?0\\.250\\b");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object value) {
        return (Map<String, Object>) value;
    }
}
