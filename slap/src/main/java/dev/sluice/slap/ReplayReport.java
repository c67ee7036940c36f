package dev.sluice.slap;

import dev.sluice.slap.ReplayPlan.Captured;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The end of a replay: per statement (command and digest), the captured and replayed counts and
 * p50/p95 latencies side by side, the statements not replayed and why, and the errors.
 */
final class ReplayReport {

    /** Rows shown, by captured total time; the rest are summed up in one line. */
    static final int TOP = 30;

    private ReplayReport() {
    }

    static void print(PrintWriter out, ReplayOptions options, ReplayResult result, ReplayPlan plan,
                      ReplayTally replayed, Map<String, ErrorTally.Entry> errors) {
        List<Map.Entry<String, Captured>> rows = new ArrayList<>(plan.byKey.entrySet());
        rows.sort(Comparator.comparingLong((Map.Entry<String, Captured> r) -> r.getValue().totalMicros).reversed()
                .thenComparing(Map.Entry::getKey));

        out.printf(Locale.ROOT, "Replayed %s against %s: %d sessions, %d statements in %.3f s (speed %s, concurrency %s)%n",
                options.file(), options.connection().address(), result.sessions(), result.statements(), result.seconds(),
                options.describeSpeed(), options.describeConcurrency());
        long notReplayed = result.notReplayed().values().stream().mapToLong(Long::longValue).sum();
        long failed = result.errors().values().stream().mapToLong(Long::longValue).sum();
        long capturedFailed = result.capturedErrors().values().stream().mapToLong(Long::longValue).sum();
        out.printf(Locale.ROOT, "  %d replayed, %d not replayed; %d errors (the capture had %d)%n%n", result.replayed(),
                notReplayed, failed, capturedFailed);
        out.printf(Locale.ROOT, "%-11s %-16s %9s %9s %21s %21s  %s%n", "command", "digest", "captured", "replayed",
                "p50 ms captured/rep", "p95 ms captured/rep", "statement");
        int shown = 0;
        for (Map.Entry<String, Captured> row : rows) {
            if (shown++ == TOP) {
                out.printf(Locale.ROOT, "... and %d more (command, digest) pairs%n", rows.size() - TOP);
                break;
            }
            Captured c = row.getValue();
            Histogram r = replayed.latencyMicros.get(row.getKey());
            long count = r == null ? 0 : r.getTotalCount();
            out.printf(Locale.ROOT, "%-11s %-16s %9d %9d %21s %21s  %s%n", c.command, c.digest == null ? "-" : c.digest,
                    c.micros.getTotalCount(), count, pair(c.micros, r, 50), pair(c.micros, r, 95), shorten(c.text));
        }
        if (!result.notReplayed().isEmpty()) {
            out.println();
            out.println("not replayed:");
            result.notReplayed().forEach((reason, n) -> out.printf(Locale.ROOT, "  %8d  %s%n", n, reason));
        }
        printSessionNotes(out, result.sessionNotes());
        if (!errors.isEmpty()) {
            out.println();
            out.println("errors in the replay (code, count, first message):");
            errors.forEach((code, e) -> out.printf(Locale.ROOT, "  %-6s %8d  %s%n", code, e.count(), e.message()));
        }
        if (!result.capturedErrors().isEmpty()) {
            out.println();
            out.println("errors in the capture (code, count):");
            result.capturedErrors().forEach((code, n) -> out.printf(Locale.ROOT, "  %-6s %8d%n", code, n));
        }
    }

    /** What was not reproduced of how sessions were opened. */
    static void printSessionNotes(PrintWriter out, Map<String, Long> notes) {
        if (notes.isEmpty()) {
            return;
        }
        out.println();
        out.println("sessions not replayed as captured (sessions, why):");
        new java.util.TreeMap<>(notes).forEach((note, n) -> out.printf(Locale.ROOT, "  %8d  %s%n", n, note));
    }

    private static String pair(Histogram captured, Histogram replayed, double percentile) {
        String r = replayed == null || replayed.getTotalCount() == 0 ? "-"
                : String.format(Locale.ROOT, "%.3f", replayed.getValueAtPercentile(percentile) / 1000.0);
        return String.format(Locale.ROOT, "%.3f / %s", captured.getValueAtPercentile(percentile) / 1000.0, r);
    }

    private static String shorten(String text) {
        if (text == null) {
            return "";
        }
        String line = text.replaceAll("\\s+", " ");
        return line.length() > 80 ? line.substring(0, 77) + "..." : line;
    }
}
