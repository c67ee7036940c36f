package dev.sluice.slap;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Decides when a concurrency sweep stops: at the first errors, when doubling the clients gains
 * less than {@link #MIN_GAIN} throughput, or at the maximum.
 */
final class Sweep {

    /** Below this gain from doubling the clients, throughput counts as no longer growing. */
    static final double MIN_GAIN = 0.05;

    private final int max;
    private final List<ConcurrencyResult> rows = new ArrayList<>();
    private String stopReason;

    Sweep(int max) {
        this.max = max;
    }

    /** Adds a row; false when the sweep is over. */
    boolean accept(ConcurrencyResult row) {
        rows.add(row);
        if (row.errorCount() > 0 || row.failedConnectCount() > 0) {
            stopReason = "errors appeared at " + row.clients() + " clients";
            return false;
        }
        if (rows.size() > 1) {
            ConcurrencyResult previous = rows.get(rows.size() - 2);
            if (row.queriesPerSecond() < previous.queriesPerSecond() * (1 + MIN_GAIN)) {
                stopReason = String.format(Locale.ROOT, "throughput grew %+.1f%% from %d to %d clients",
                        gain(previous, row) * 100, previous.clients(), row.clients());
                return false;
            }
        }
        if (row.clients() * 2 > max) {
            stopReason = "reached the sweep maximum of " + max + " clients";
            return false;
        }
        return true;
    }

    SweepResult result(String engine) {
        int knee = rows.get(0).clients();
        for (int i = 1; i < rows.size(); i++) {
            ConcurrencyResult row = rows.get(i);
            if (row.errorCount() > 0 || row.failedConnectCount() > 0
                    || gain(rows.get(i - 1), row) < MIN_GAIN) {
                break;
            }
            knee = row.clients();
        }
        return new SweepResult(engine, rows, knee, stopReason == null ? "stopped" : stopReason);
    }

    static double gain(ConcurrencyResult from, ConcurrencyResult to) {
        return from.queriesPerSecond() == 0 ? 0 : to.queriesPerSecond() / from.queriesPerSecond() - 1;
    }

    static String table(SweepResult sweep) {
        StringBuilder out = new StringBuilder("Sweep");
        if (sweep.engine() != null) {
            out.append(" for engine ").append(sweep.engine());
        }
        out.append(": clients doubled until throughput stopped growing\n");
        out.append(String.format(Locale.ROOT, "%8s %12s %8s %12s %10s %8s%n",
                "clients", "queries/s", "gain", "avg seconds", "p95 ms", "errors"));
        ConcurrencyResult previous = null;
        for (ConcurrencyResult row : sweep.rows()) {
            Histogram latency = row.latencyMicros();
            String gain = previous == null ? "-" : String.format(Locale.ROOT, "%+.1f%%", gain(previous, row) * 100);
            out.append(String.format(Locale.ROOT, "%8d %12.1f %8s %12s %10.3f %8d%n", row.clients(),
                    row.queriesPerSecond(), gain, MysqlslapFormat.seconds(row.avgMillis()),
                    latency.getTotalCount() == 0 ? 0.0 : MysqlslapFormat.ms(latency.getValueAtPercentile(95)),
                    row.errorCount() + row.failedConnectCount()));
            previous = row;
        }
        out.append("Knee: ").append(sweep.knee()).append(" clients, the highest concurrency still gaining throughput (")
                .append(sweep.stopReason()).append(")\n\n");
        return out.toString().replace(System.lineSeparator(), "\n");
    }
}
