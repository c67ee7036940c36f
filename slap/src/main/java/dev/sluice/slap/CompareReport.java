package dev.sluice.slap;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The text summary of a comparison: what ran, the statements whose answers differed (each with
 * its first example, parameters included), the latency of every statement on both servers with
 * the ratio, and what was not replayed and why.
 */
final class CompareReport {

    /** Statements in the latency table, by total time on the first server; the rest are summed up. */
    static final int TOP = 30;
    /** Differing statements listed with an example. */
    static final int DIFFERING = 100;

    private CompareReport() {
    }

    static void print(PrintWriter out, CompareResult r) {
        out.printf(Locale.ROOT, "Compared %s on A %s and B %s: %d sessions, %d statements in %.3f s (speed %s, one"
                + " statement at a time in the capture's order)%n", r.file(), r.a(), r.b(), r.sessions(), r.statements(),
                r.seconds(), r.speed());
        List<DigestComparison> differing = r.differing();
        out.printf(Locale.ROOT, "  %d compared, %d not replayed; answers differ for %d of %d statements (by digest)%n",
                r.compared(), r.notReplayedCount(), differing.size(), r.digests().size());
        if (!differing.isEmpty()) {
            out.println();
            out.println("Answers differ (command, digest, executions that differed / compared, statement):");
            int shown = 0;
            for (DigestComparison d : differing) {
                if (shown++ == DIFFERING) {
                    out.printf(Locale.ROOT, "... and %d more%n", differing.size() - DIFFERING);
                    break;
                }
                out.printf(Locale.ROOT, "  %-11s %-16s %6d / %-6d %s%n", d.command(), d.digest() == null ? "-" : d.digest(),
                        d.differing(), d.compared(), shorten(d.text(), 100));
                DigestComparison.Example e = d.first();
                out.printf(Locale.ROOT, "      first in session %d: %s%n", e.session(), shorten(e.sql(), 200));
                if (e.params() != null) {
                    out.printf(Locale.ROOT, "      params: %s%n", shorten(JsonText.write(e.params()), 200));
                }
                out.printf(Locale.ROOT, "      %s%n", e.difference());
            }
        }
        out.println();
        out.printf(Locale.ROOT, "%-11s %-16s %8s %8s %10s %10s %10s %10s %8s  %s%n", "command", "digest", "count", "differ",
                "p50 A ms", "p50 B ms", "p99 A ms", "p99 B ms", "p99 B/A", "statement");
        int shown = 0;
        for (DigestComparison d : r.digests()) {
            if (shown++ == TOP) {
                out.printf(Locale.ROOT, "... and %d more (command, digest) pairs%n", r.digests().size() - TOP);
                break;
            }
            out.printf(Locale.ROOT, "%-11s %-16s %8d %8d %10s %10s %10s %10s %8s  %s%n", d.command(),
                    d.digest() == null ? "-" : d.digest(), d.compared(), d.differing(), ms(d.p50A()), ms(d.p50B()),
                    ms(d.p99A()), ms(d.p99B()), ratio(d.p99Ratio()), shorten(d.text(), 80));
        }
        list(out, "not replayed (statements, why):", r.notReplayed());
        list(out, "sessions not replayed as captured (sessions, why):", r.sessionNotes());
        list(out, "errors answered by A (code, count):", r.errorsA());
        list(out, "errors answered by B (code, count):", r.errorsB());
    }

    private static void list(PrintWriter out, String title, Map<String, Long> counts) {
        if (counts.isEmpty()) {
            return;
        }
        out.println();
        out.println(title);
        counts.forEach((what, n) -> out.printf(Locale.ROOT, "  %8d  %s%n", n, what));
    }

    static String ms(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.3f", value);
    }

    static String ratio(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.2f", value);
    }

    static String shorten(String text, int max) {
        if (text == null) {
            return "";
        }
        String line = text.replaceAll("\\s+", " ");
        return line.length() > max ? line.substring(0, max - 3) + "..." : line;
    }
}
