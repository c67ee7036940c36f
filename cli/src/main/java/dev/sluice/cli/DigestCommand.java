package dev.sluice.cli;

import dev.sluice.slap.CaptureFile;
import dev.sluice.slap.CapturedEvent;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice digest FILE...}: a report of a jsonl capture in the manner of pt-query-digest: a
 * profile of the top statements by total time, then each one's count, total, mean, p95 and max
 * time, rows, backends and schemas, and its slowest example.
 */
@Command(name = "digest", mixinStandardHelpOptions = true,
        description = "Report on a capture (sluice proxy --capture, jsonl): top statements by total time, like pt-query-digest.")
public final class DigestCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "jsonl capture files (rotated ones too: FILE.2 FILE.1 FILE)")
    private List<Path> files;

    @Option(names = "--limit", paramLabel = "N", description = "Statements shown (default: ${DEFAULT-VALUE})")
    private int limit = 20;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (limit < 1) {
            err.println("sluice digest: --limit " + limit + " (expected: 1 or more)");
            return 2;
        }
        Map<String, DigestGroup> groups = new HashMap<>();
        long[] span = {Long.MAX_VALUE, Long.MIN_VALUE};
        try {
            for (Path file : files) {
                CaptureFile.forEach(file, e -> {
                    groups.computeIfAbsent(DigestGroup.keyOf(e), k -> DigestGroup.of(e)).add(e);
                    span[0] = Math.min(span[0], e.timeMicros());
                    span[1] = Math.max(span[1], e.timeMicros() + e.durationMicros());
                });
            }
        } catch (IllegalArgumentException | UncheckedIOException e) {
            err.println("sluice digest: " + e.getMessage());
            return 1;
        }
        List<DigestGroup> ranked = new ArrayList<>(groups.values());
        ranked.sort(Comparator.comparingLong((DigestGroup g) -> g.totalMicros).reversed()
                .thenComparing(g -> g.key));
        print(out, ranked, span);
        out.flush();
        return 0;
    }

    private void print(PrintWriter out, List<DigestGroup> ranked, long[] span) {
        long statements = ranked.stream().mapToLong(DigestGroup::count).sum();
        long totalMicros = ranked.stream().mapToLong(g -> g.totalMicros).sum();
        out.printf(Locale.ROOT, "# %s%n", files.stream().map(Path::toString).collect(Collectors.joining(" ")));
        if (statements == 0) {
            out.println("# no statements");
            return;
        }
        out.printf(Locale.ROOT, "# %d statements, %d digests, %.3f s in statements; %s to %s%n%n", statements,
                ranked.size(), totalMicros / 1e6, time(span[0]), time(span[1]));
        out.println("# Profile");
        out.printf(Locale.ROOT, "# %4s %-18s %9s %6s %8s %9s %9s %9s %9s  %s%n", "Rank", "Digest", "Total s", "Share",
                "Count", "Mean ms", "P95 ms", "Max ms", "Rows", "Statement");
        out.printf(Locale.ROOT, "# %4s %-18s %9s %6s %8s %9s %9s %9s %9s  %s%n", "====", "=".repeat(18), "=".repeat(9),
                "======", "========", "=".repeat(9), "=".repeat(9), "=".repeat(9), "=".repeat(9), "=".repeat(9));
        List<DigestGroup> shown = ranked.subList(0, Math.min(limit, ranked.size()));
        for (int i = 0; i < shown.size(); i++) {
            DigestGroup g = shown.get(i);
            out.printf(Locale.ROOT, "# %4d %-18s %9.4f %5.1f%% %8d %9.3f %9.3f %9.3f %9d  %s%n", i + 1, label(g),
                    g.totalMicros / 1e6, share(g, totalMicros), g.count(), g.totalMicros / 1e3 / g.count(),
                    g.micros.getValueAtPercentile(95) / 1e3, g.micros.getMaxValue() / 1e3, g.rowsSent, oneLine(g.text, 60));
        }
        if (ranked.size() > shown.size()) {
            long rest = ranked.subList(shown.size(), ranked.size()).stream().mapToLong(DigestGroup::count).sum();
            out.printf(Locale.ROOT, "# MISC %-18s %9.4f %5.1f%% %8d  <%d more digests>%n", "0xMISC",
                    ranked.subList(shown.size(), ranked.size()).stream().mapToLong(g -> g.totalMicros).sum() / 1e6,
                    100.0 * ranked.subList(shown.size(), ranked.size()).stream().mapToLong(g -> g.totalMicros).sum()
                            / Math.max(1, totalMicros), rest, ranked.size() - shown.size());
        }
        for (int i = 0; i < shown.size(); i++) {
            detail(out, i + 1, shown.get(i), totalMicros);
        }
    }

    private static void detail(PrintWriter out, int rank, DigestGroup g, long totalMicros) {
        out.printf(Locale.ROOT, "%n# Query %d: %s, %d statements, %.1f%% of the time%n", rank, label(g), g.count(),
                share(g, totalMicros));
        out.printf(Locale.ROOT, "# Time:     total %.4f s, mean %.3f ms, p95 %.3f ms, max %.3f ms%n", g.totalMicros / 1e6,
                g.totalMicros / 1e3 / g.count(), g.micros.getValueAtPercentile(95) / 1e3, g.micros.getMaxValue() / 1e3);
        out.printf(Locale.ROOT, "# Rows:     sent %d (%.1f each), affected %d%n", g.rowsSent,
                (double) g.rowsSent / g.count(), g.rowsAffected);
        out.printf(Locale.ROOT, "# Errors:   %d%n", g.errors);
        out.printf(Locale.ROOT, "# Commands: %s%n", counts(g.commands, g.count()));
        out.printf(Locale.ROOT, "# Backends: %s%n", counts(g.backends, g.count()));
        if (!g.schemas.isEmpty()) {
            out.printf(Locale.ROOT, "# Schemas:  %s%n", counts(g.schemas, g.count()));
        }
        if (g.digest != null) {
            out.printf(Locale.ROOT, "# Digest:   %s%n", oneLine(g.text, Integer.MAX_VALUE));
        }
        CapturedEvent e = g.slowest;
        out.printf(Locale.ROOT, "# Example (the slowest, %.3f ms, session %d, %s):%n", e.durationMicros() / 1e3,
                e.session(), time(e.timeMicros()));
        if (e.sql() != null && g.digest != null) {
            out.println(e.sql().strip() + (e.sql().strip().endsWith(";") ? "" : ";"));
            if (e.params() != null && !e.params().isEmpty()) {
                out.println("-- parameters: " + e.params());
            }
        } else {
            out.println("# administrator command: " + e.command() + (e.sql() == null ? "" : " " + oneLine(e.sql(), 200)));
        }
    }

    private static String label(DigestGroup g) {
        return g.digest != null ? "0x" + g.digest : g.key;
    }

    private static double share(DigestGroup g, long totalMicros) {
        return 100.0 * g.totalMicros / Math.max(1, totalMicros);
    }

    private static String counts(Map<String, Long> counts, long total) {
        return counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .map(c -> String.format(Locale.ROOT, "%s %d (%.1f%%)", c.getKey(), c.getValue(), 100.0 * c.getValue() / total))
                .collect(Collectors.joining(", "));
    }

    private static String time(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000), Math.floorMod(micros, 1_000_000) * 1000L).toString();
    }

    private static String oneLine(String text, int max) {
        if (text == null) {
            return "";
        }
        String line = text.strip().replaceAll("\\s+", " ");
        return line.length() > max ? line.substring(0, max - 3) + "..." : line;
    }
}
