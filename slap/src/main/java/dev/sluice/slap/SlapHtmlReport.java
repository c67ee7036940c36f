package dev.sluice.slap;

import dev.sluice.slap.html.Axis;
import dev.sluice.slap.html.HtmlPage;
import dev.sluice.slap.html.LineChart;
import dev.sluice.slap.html.Palette;
import dev.sluice.slap.html.Svg;
import java.io.IOException;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;

/**
 * {@code --report-html=FILE}: one self-contained page with the run's results table, its
 * throughput and p50/p99 latency interval by interval (the client phases back to back, a marker
 * where each begins), and for a {@code --sweep} its throughput and latency against the client
 * count with the knee marked.
 */
final class SlapHtmlReport {

    private SlapHtmlReport() {
    }

    static void write(Path file, SlapOptions options, SlapResult result) {
        try {
            render(options, result).write(file);
        } catch (IOException e) {
            throw new SlapException("Could not write the --report-html file: " + file + ": " + e.getMessage(), 1, e);
        }
    }

    static HtmlPage render(SlapOptions options, SlapResult result) {
        HtmlPage page = new HtmlPage("slap run against " + options.connection().address(), describe(options));
        page.heading("Results");
        page.table(List.of("engine", "clients", "iterations", "queries", "avg seconds", "queries/s", "p50 ms", "p95 ms",
                        "p99 ms", "max ms", "errors"),
                result.runs().stream().map(SlapHtmlReport::row).toList(), List.of(), List.of());
        timeline(page, result.runs());
        int n = 0;
        for (SweepResult sweep : result.sweeps()) {
            sweep(page, sweep, n++);
        }
        return page;
    }

    private static String describe(SlapOptions options) {
        WorkloadOptions w = options.workload();
        String load = w.autoGenerateSql() ? "auto-generated " + w.loadType() + " load" : "--query";
        String how = options.sweepMax() > 0 ? "sweep up to " + options.sweepMax() + " clients"
                : "concurrency " + options.plannedConcurrency().stream().map(String::valueOf).reduce((a, b) -> a + "," + b)
                        .orElse("");
        String length = options.timeSeconds() > 0 ? ", " + options.timeSeconds() + " s each"
                : options.numberOfQueries() > 0 ? ", " + options.numberOfQueries() + " queries each" : "";
        return load + ", " + how + length + ", " + options.iterations() + " iteration(s); "
                + ZonedDateTime.now().format(DateTimeFormatter.RFC_1123_DATE_TIME);
    }

    private static List<String> row(ConcurrencyResult run) {
        Histogram latency = run.latencyMicros();
        return List.of(run.engine() == null ? "-" : run.engine(), Integer.toString(run.clients()),
                Integer.toString(run.iterations().size()), Long.toString(run.totalQueries()),
                MysqlslapFormat.seconds(run.avgMillis()), Svg.number(Math.round(run.queriesPerSecond() * 10) / 10.0),
                ms(latency, 50), ms(latency, 95), ms(latency, 99),
                latency.getTotalCount() == 0 ? "-" : Svg.number(latency.getMaxValue() / 1000.0),
                Long.toString(run.errorCount() + run.failedConnectCount()));
    }

    private static String ms(Histogram latency, double percentile) {
        return latency.getTotalCount() == 0 ? "-" : Svg.number(latency.getValueAtPercentile(percentile) / 1000.0);
    }

    /** Every phase's intervals on one time line, phases back to back (the set-up between them left out). */
    private static void timeline(HtmlPage page, List<ConcurrencyResult> runs) {
        List<double[]> points = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        LineChart throughput = new LineChart("throughput", "seconds (client phases back to back)", "queries per second");
        LineChart latency = new LineChart("latency", "seconds (client phases back to back)", "latency (ms)");
        double offset = 0;
        boolean several = runs.size() > 1 || runs.stream().anyMatch(r -> r.iterations().size() > 1);
        for (ConcurrencyResult run : runs) {
            for (int i = 0; i < run.iterations().size(); i++) {
                PhaseResult phase = run.iterations().get(i);
                String name = (run.engine() == null ? "" : run.engine() + ", ") + run.clients()
                        + (run.clients() == 1 ? " client" : " clients")
                        + (run.iterations().size() > 1 ? " #" + (i + 1) : "");
                if (several) {
                    throughput.marker(offset, name, Palette.GREY);
                    latency.marker(offset, name, Palette.GREY);
                    if (!points.isEmpty()) {
                        // A gap: the line does not join one phase's last interval to the next one's first.
                        points.add(new double[] {offset, Double.NaN, Double.NaN, Double.NaN, offset});
                        notes.add("");
                    }
                }
                for (IntervalPoint p : phase.intervals()) {
                    points.add(new double[] {offset + p.endSeconds(), p.queriesPerSecond(), p.p50Ms(), p.p99Ms(),
                            offset + p.endSeconds() - p.seconds()});
                    notes.add(name + ", at " + Svg.number(p.endSeconds()) + " s (" + p.queries() + " queries in "
                            + Svg.number(p.seconds()) + " s): ");
                }
                offset += phase.nanos() / 1e9;
            }
        }
        if (points.isEmpty()) {
            page.paragraph("No interval figures were recorded.");
            return;
        }
        double[] t = column(points, 0);
        double[] from = column(points, 4);
        double[] qps = column(points, 1);
        double[] p50 = column(points, 2);
        double[] p99 = column(points, 3);
        throughput.xAxis(Axis.linear(0, offset))
                .steps("queries/s", Palette.BLUE, false, from, t, qps, notes(notes, qps, " queries/s"));
        latency.xAxis(Axis.linear(0, offset)).steps("p50", Palette.GREEN, false, from, t, p50, notes(notes, p50, " ms p50"))
                .steps("p99", Palette.BAD, true, from, t, p99, notes(notes, p99, " ms p99"));
        page.heading("Throughput per interval");
        page.markup(throughput.svg());
        page.heading("Latency per interval: p50 and p99");
        page.markup(latency.svg());
    }

    private static List<String> notes(List<String> prefixes, double[] values, String unit) {
        return IntStream.range(0, values.length).mapToObj(i -> prefixes.get(i) + Svg.number(values[i]) + unit).toList();
    }

    private static void sweep(HtmlPage page, SweepResult sweep, int index) {
        List<ConcurrencyResult> rows = sweep.rows();
        double[] clients = rows.stream().mapToDouble(ConcurrencyResult::clients).toArray();
        double[] qps = rows.stream().mapToDouble(ConcurrencyResult::queriesPerSecond).toArray();
        double[] p50 = rows.stream().mapToDouble(r -> percentile(r, 50)).toArray();
        double[] p99 = rows.stream().mapToDouble(r -> percentile(r, 99)).toArray();
        List<String> qpsNotes = IntStream.range(0, rows.size())
                .mapToObj(i -> rows.get(i).clients() + " clients: " + Svg.number(qps[i]) + " queries/s").toList();
        List<String> p50Notes = IntStream.range(0, rows.size())
                .mapToObj(i -> rows.get(i).clients() + " clients: p50 " + Svg.number(p50[i]) + " ms").toList();
        List<String> p99Notes = IntStream.range(0, rows.size())
                .mapToObj(i -> rows.get(i).clients() + " clients: p99 " + Svg.number(p99[i]) + " ms").toList();
        Axis x = Axis.log2(clients[0], clients[clients.length - 1]);
        String knee = "knee: " + sweep.knee() + " clients";
        LineChart throughput = new LineChart("sweep-throughput-" + index, "clients", "queries per second").xAxis(x)
                .series("queries/s", Palette.BLUE, false, clients, qps, qpsNotes).marker(sweep.knee(), knee, Palette.BAD);
        LineChart latency = new LineChart("sweep-latency-" + index, "clients", "latency (ms)").xAxis(x)
                .series("p50", Palette.GREEN, false, clients, p50, p50Notes)
                .series("p99", Palette.BAD, true, clients, p99, p99Notes).marker(sweep.knee(), knee, Palette.BAD);
        String engine = sweep.engine() == null ? "" : " for engine " + sweep.engine();
        page.heading("Sweep" + engine + ": throughput against clients");
        page.paragraph("Knee: " + sweep.knee() + " clients, the highest concurrency still gaining throughput ("
                + sweep.stopReason() + ").");
        page.markup(throughput.svg());
        page.heading("Sweep" + engine + ": p50 and p99 latency against clients");
        page.markup(latency.svg());
    }

    static double percentile(ConcurrencyResult run, double percentile) {
        Histogram latency = run.latencyMicros();
        return latency.getTotalCount() == 0 ? 0 : latency.getValueAtPercentile(percentile) / 1000.0;
    }

    private static double[] column(List<double[]> rows, int index) {
        return rows.stream().mapToDouble(r -> r[index]).toArray();
    }
}
