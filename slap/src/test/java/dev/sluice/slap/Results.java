package dev.sluice.slap;

import org.HdrHistogram.Histogram;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Builds results with known figures for format and sweep tests. */
final class Results {

    private Results() {
    }

    static PhaseResult phase(long millis, long queries, long... latenciesMicros) {
        Histogram latency = new Histogram(3);
        Arrays.stream(latenciesMicros).forEach(latency::recordValue);
        return new PhaseResult(millis, millis * 1_000_000, queries, queries, 0, 0, 0, 0, Map.of(), Map.of(), latency, null);
    }

    static PhaseResult failing(long millis, long queries, String code, long count) {
        return new PhaseResult(millis, millis * 1_000_000, queries, queries, 0, 0, 0, 0,
                Map.of(code, new ErrorTally.Entry(count, "Deadlock found when trying to get lock")),
                Map.of("1040", new ErrorTally.Entry(2, "Too many connections")), new Histogram(3), null);
    }

    static ConcurrencyResult result(String engine, int clients, long perClient, PhaseResult... iterations) {
        return new ConcurrencyResult(engine, "mixed", clients, perClient, List.of(iterations));
    }
}
