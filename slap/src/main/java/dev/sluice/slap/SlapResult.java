package dev.sluice.slap;

import java.util.List;

/** Everything a slap run measured: one result per engine and concurrency value, and any sweeps. */
public record SlapResult(List<ConcurrencyResult> runs, List<SweepResult> sweeps) {

    public SlapResult {
        runs = List.copyOf(runs);
        sweeps = List.copyOf(sweeps);
    }
}
