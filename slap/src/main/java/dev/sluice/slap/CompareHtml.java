package dev.sluice.slap;

import dev.sluice.slap.html.Axis;
import dev.sluice.slap.html.BarChart;
import dev.sluice.slap.html.HtmlPage;
import dev.sluice.slap.html.Palette;
import dev.sluice.slap.html.Svg;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * {@code --report-html FILE} of a comparison, on the same page machinery as a run's: the
 * statements whose answers differed with their first example, each statement's p50 and p99
 * latency on B against A as bars from 1 (left: faster on B, right: slower; the statements that
 * differed in the trouble colour), every statement's figures, and what was not replayed.
 */
final class CompareHtml {

    /** Statements in the charts, by total time on A. */
    static final int CHARTED = 25;
    /** Characters of a statement shown in a table. */
    private static final int SHOWN = 300;

    private CompareHtml() {
    }

    static void write(Path file, CompareResult result) {
        try {
            render(result).write(file);
        } catch (IOException e) {
            throw new SlapException("Could not write the --report-html file: " + file + ": " + e.getMessage(), 1, e);
        }
    }

    static HtmlPage render(CompareResult r) {
        HtmlPage page = new HtmlPage("Comparison of " + r.file().getFileName() + ": A " + r.a() + ", B " + r.b(),
                String.format(java.util.Locale.ROOT, "%d sessions, %d statements (%d compared, %d not replayed) in %.1f s"
                        + " at speed %s, one statement at a time in the capture's order. Both servers ran the capture's"
                        + " writes.", r.sessions(), r.statements(), r.compared(), r.notReplayedCount(), r.seconds(),
                        r.speed()));
        List<DigestComparison> differing = r.differing();
        page.heading("Answers that differ: " + differing.size() + " of " + r.digests().size() + " statements");
        if (differing.isEmpty()) {
            page.paragraph("Every answer matched: errors, rows, column types, affected rows and warnings.");
        } else {
            List<List<String>> rows = new ArrayList<>();
            for (DigestComparison d : differing) {
                DigestComparison.Example e = d.first();
                rows.add(List.of(d.command(), digest(d), d.differing() + " / " + d.compared(),
                        CompareReport.shorten(text(d), SHOWN), CompareReport.shorten(e.sql(), SHOWN) + (e.params() == null
                                ? "" : "\nparams: " + CompareReport.shorten(JsonText.write(e.params()), SHOWN)),
                        e.difference()));
            }
            page.table(List.of("command", "digest", "differ / compared", "statement", "first example", "difference"),
                    rows, List.of(3, 4, 5), List.of());
        }
        List<DigestComparison> charted = r.digests().stream().limit(CHARTED).toList();
        page.heading("p99 latency, B against A");
        page.paragraph("Bars start at 1 (as fast on both): to the left in blue, faster on B; to the right in orange,"
                + " slower on B; in red, statements whose answers differed. The " + CHARTED + " statements with the"
                + " most time on A; hover a bar for its figures.");
        page.markup(ratios("p99-ratio", charted, DigestComparison::p99Ratio, "p99").svg());
        page.heading("p50 latency, B against A");
        page.markup(ratios("p50-ratio", charted, DigestComparison::p50Ratio, "p50").svg());
        page.heading("Every statement, by total time on A");
        List<List<String>> rows = new ArrayList<>();
        List<Integer> flagged = new ArrayList<>();
        for (DigestComparison d : r.digests()) {
            if (d.differing() > 0) {
                flagged.add(rows.size());
            }
            rows.add(List.of(d.command(), digest(d), Long.toString(d.compared()), Long.toString(d.differing()),
                    CompareReport.ms(d.p50A()), CompareReport.ms(d.p50B()), CompareReport.ms(d.p99A()),
                    CompareReport.ms(d.p99B()), CompareReport.ratio(d.p99Ratio()), CompareReport.shorten(text(d), SHOWN)));
        }
        page.table(List.of("command", "digest", "count", "differ", "p50 A ms", "p50 B ms", "p99 A ms", "p99 B ms",
                "p99 B/A", "statement"), rows, List.of(9), flagged);
        counts(page, "Not replayed", "statements", r.notReplayed());
        counts(page, "Sessions not replayed as captured", "sessions", r.sessionNotes());
        return page;
    }

    private static BarChart ratios(String id, List<DigestComparison> digests, ToDoubleFunction<DigestComparison> ratio,
                                   String what) {
        double low = 0.5;
        double high = 2;
        for (DigestComparison d : digests) {
            double value = ratio.applyAsDouble(d);
            if (Double.isFinite(value) && value > 0) {
                low = Math.min(low, value);
                high = Math.max(high, value);
            }
        }
        BarChart chart = new BarChart(id, what + " on B / " + what + " on A (log scale)", Axis.log2(low, high), 1);
        for (DigestComparison d : digests) {
            double value = ratio.applyAsDouble(d);
            String color = d.differing() > 0 ? Palette.BAD : value > 1 ? Palette.ORANGE : Palette.BLUE;
            double a = what.equals("p99") ? d.p99A() : d.p50A();
            double b = what.equals("p99") ? d.p99B() : d.p50B();
            chart.bar(d.command() + " " + CompareReport.shorten(d.text(), 60), value, color,
                    d.command() + " " + digest(d) + ": " + what + " A " + Svg.number(a) + " ms, B " + Svg.number(b)
                            + " ms; " + d.compared() + " executions" + (d.differing() > 0 ? ", " + d.differing()
                            + " with other answers" : ""));
        }
        return chart;
    }

    private static void counts(HtmlPage page, String title, String unit, Map<String, Long> counts) {
        if (counts.isEmpty()) {
            return;
        }
        page.heading(title);
        page.table(List.of(unit, "why"), counts.entrySet().stream().map(e -> List.of(Long.toString(e.getValue()),
                e.getKey())).toList(), List.of(1), List.of());
    }

    private static String digest(DigestComparison d) {
        return d.digest() == null ? "-" : d.digest();
    }

    private static String text(DigestComparison d) {
        return d.text() == null ? "" : d.text();
    }
}
