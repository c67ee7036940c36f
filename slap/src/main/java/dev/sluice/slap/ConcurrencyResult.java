package dev.sluice.slap;

import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The figures of one engine at one concurrency value: mysqlslap's conclusions (average, minimum
 * and maximum time over the iterations, in truncated milliseconds) plus slap's own.
 *
 * @param engine           the --engine entry, or null
 * @param loadType         the load-type label mysqlslap prints in CSV (the option's text as given)
 * @param queriesPerClient what mysqlslap prints: the per-client limit (0 means the list ran once)
 */
public record ConcurrencyResult(String engine, String loadType, int clients, long queriesPerClient,
                                List<PhaseResult> iterations) {

    public ConcurrencyResult {
        iterations = List.copyOf(iterations);
        if (iterations.isEmpty()) {
            throw new IllegalArgumentException("no iterations");
        }
    }

    /** mysqlslap: sum / iterations, integer division. */
    public long avgMillis() {
        return iterations.stream().mapToLong(PhaseResult::millis).sum() / iterations.size();
    }

    public long minMillis() {
        return iterations.stream().mapToLong(PhaseResult::millis).min().orElseThrow();
    }

    public long maxMillis() {
        return iterations.stream().mapToLong(PhaseResult::millis).max().orElseThrow();
    }

    public long totalQueries() {
        return iterations.stream().mapToLong(PhaseResult::queries).sum();
    }

    /** Queries per second over all iterations, from the exact (not truncated) times. */
    public double queriesPerSecond() {
        long nanos = iterations.stream().mapToLong(PhaseResult::nanos).sum();
        return nanos == 0 ? 0 : totalQueries() * 1e9 / nanos;
    }

    public Map<String, ErrorTally.Entry> errors() {
        Map<String, ErrorTally.Entry> all = new TreeMap<>(ErrorTally::compareCodes);
        iterations.forEach(i -> ErrorTally.merge(all, i.errors()));
        return all;
    }

    public Map<String, ErrorTally.Entry> failedConnects() {
        Map<String, ErrorTally.Entry> all = new TreeMap<>(ErrorTally::compareCodes);
        iterations.forEach(i -> ErrorTally.merge(all, i.failedConnects()));
        return all;
    }

    public long errorCount() {
        return iterations.stream().mapToLong(PhaseResult::errorCount).sum();
    }

    public long failedConnectCount() {
        return iterations.stream().mapToLong(PhaseResult::failedConnectCount).sum();
    }

    /** Latency of every query of every iteration, in microseconds. */
    public Histogram latencyMicros() {
        Histogram all = new Histogram(3);
        iterations.forEach(i -> all.add(i.latencyMicros()));
        return all;
    }
}
