package dev.sluice.slap;

import java.util.List;

/**
 * A {@code --sweep}: the rows run with 1, 2, 4, ... clients, the knee (the highest concurrency
 * still gaining throughput) and why the sweep stopped.
 */
public record SweepResult(String engine, List<ConcurrencyResult> rows, int knee, String stopReason) {

    public SweepResult {
        rows = List.copyOf(rows);
    }
}
