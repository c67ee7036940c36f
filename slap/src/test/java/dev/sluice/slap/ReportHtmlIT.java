package dev.sluice.slap;

import static dev.sluice.slap.ReportingTest.object;
import static dev.sluice.slap.SlapRunner.slap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/**
 * {@code --report-html} of real runs: the page is self-contained, and every point its charts
 * draw is a figure of the run, as {@code --json} reports it (interval by interval, and per client
 * count for a sweep), drawn where the chart's axes put that figure.
 */
@ExtendWith(SlapServerExtension.class)
class ReportHtmlIT {

    private static final String SCHEMA = "--create-schema=" + TestUsers.TEST_SCHEMA;

    @TempDir
    Path dir;

    @Test
    void intervalChartsDrawTheRunsIntervals(MariaDbServer server) throws Exception {
        Path json = dir.resolve("run.json");
        Path html = dir.resolve("run.html");
        SlapCommandTest.Run run = slap(server, SCHEMA, "--query=SELECT SLEEP(0.002)", "-c", "2,3", "--time=2",
                "--report-interval=1", "--json=" + json, "--report-html=" + html);
        assertThat(run.exit()).as(run.err()).isZero();

        ReportPage page = ReportPage.read(html);
        List<Map<String, Object>> expected = new ArrayList<>();
        double offset = 0;
        for (Object r : (List<?>) object(JsonText.parse(Files.readString(json))).get("runs")) {
            Map<String, Object> result = object(r);
            for (Object i : (List<?>) result.get("iterations")) {
                Map<String, Object> iteration = object(i);
                List<?> intervals = (List<?>) iteration.get("intervals");
                assertThat(intervals).as("two seconds at one interval a second").hasSizeBetween(2, 3);
                long queries = 0;
                for (Object p : intervals) {
                    Map<String, Object> point = new java.util.HashMap<>(object(p));
                    point.put("t", offset + number(point.get("end_seconds")));
                    expected.add(point);
                    queries += (Long) point.get("queries");
                }
                assertThat(queries).as("the intervals hold every query of the phase").isEqualTo(iteration.get("queries"));
                offset += number(iteration.get("seconds"));
            }
        }

        Element throughput = page.chart("throughput");
        List<ReportPage.Point> qps = page.points(throughput, "queries/s");
        List<ReportPage.Point> p50 = page.points(page.chart("latency"), "p50");
        List<ReportPage.Point> p99 = page.points(page.chart("latency"), "p99");
        assertThat(qps).hasSameSizeAs(expected);
        assertThat(p50).hasSameSizeAs(expected);
        assertThat(p99).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            Map<String, Object> want = expected.get(i);
            // --json gives three decimals; the chart keeps the exact figure.
            assertThat(qps.get(i).x()).as("point %d time", i).isCloseTo((Double) want.get("t"), within(0.002));
            assertThat(qps.get(i).y()).as("point %d q/s", i).isCloseTo(number(want.get("queries_per_second")), within(0.0006));
            assertThat(p50.get(i).y()).as("point %d p50", i).isCloseTo(number(want.get("p50_ms")), within(0.0006));
            assertThat(p99.get(i).y()).as("point %d p99", i).isCloseTo(number(want.get("p99_ms")), within(0.0006));
        }
        page.assertDrawnWhereTheAxesSay(throughput, qps);
        assertThat(page.markers(throughput)).as("one marker where each client phase begins").hasSize(2);
    }

    @Test
    void sweepChartsDrawEachClientCountAndMarkTheKnee(MariaDbServer server) throws Exception {
        Path json = dir.resolve("sweep.json");
        Path html = dir.resolve("sweep.html");
        // Each query sleeps, so throughput grows with the clients up to the sweep's maximum.
        SlapCommandTest.Run run = slap(server, SCHEMA, "--query=SELECT SLEEP(0.01)", "--number-of-queries=16",
                "--sweep=4", "--json=" + json, "--report-html=" + html);
        assertThat(run.exit()).as(run.err()).isZero();

        Map<String, Object> report = object(JsonText.parse(Files.readString(json)));
        List<?> runs = (List<?>) report.get("runs");
        Map<String, Object> sweep = object(((List<?>) report.get("sweeps")).get(0));
        ReportPage page = ReportPage.read(html);
        Element throughput = page.chart("sweep-throughput-0");
        Element latency = page.chart("sweep-latency-0");
        List<ReportPage.Point> qps = page.points(throughput, "queries/s");
        List<ReportPage.Point> p99 = page.points(latency, "p99");

        assertThat(qps).hasSize(runs.size()).hasSize(3);
        for (int i = 0; i < runs.size(); i++) {
            Map<String, Object> row = object(runs.get(i));
            assertThat(qps.get(i).x()).isEqualTo(((Long) row.get("clients")).doubleValue());
            assertThat(qps.get(i).y()).isCloseTo(number(row.get("queries_per_second")), within(0.0006));
            assertThat(p99.get(i).x()).isEqualTo(((Long) row.get("clients")).doubleValue());
            assertThat(p99.get(i).y()).isCloseTo(number(object(row.get("latency_ms")).get("p99")), within(0.0006));
        }
        assertThat(throughput.getAttribute("data-x-scale")).isEqualTo("log2");
        assertThat(page.markers(throughput)).containsExactly(((Long) sweep.get("knee")).doubleValue());
        assertThat(page.markers(latency)).containsExactly(((Long) sweep.get("knee")).doubleValue());
        page.assertDrawnWhereTheAxesSay(throughput, qps);
        page.assertDrawnWhereTheAxesSay(latency, p99);
    }

    private static double number(Object value) {
        return ((Number) value).doubleValue();
    }
}
