package dev.sluice.slap;

import static dev.sluice.slap.ReportingTest.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** A comparison's three outputs from known figures: text, JSON and the page, which agree with each other. */
class CompareReportsTest {

    @TempDir
    Path dir;

    private static Histogram micros(long... values) {
        Histogram h = new Histogram(3);
        for (long v : values) {
            h.recordValue(v);
        }
        return h;
    }

    private static CompareResult result() {
        DigestComparison insert = new DigestComparison("Execute", "00000000000000A1", "INSERT INTO t (v) VALUES (?)", 4, 1,
                0, micros(1000, 1000, 1000, 2000), micros(500, 500, 500, 1000),
                new DigestComparison.Example(7, "INSERT INTO t (v) VALUES (?)", List.of("abcdefgh"),
                        "A error 1406 (Data too long for column 'v' at row 1); B OK, 1 affected"));
        DigestComparison select = new DigestComparison("Query", "00000000000000B2", "SELECT v FROM t WHERE id = ?", 3, 0,
                0, micros(200, 200, 200), micros(800, 800, 800), null);
        return new CompareResult(Path.of("capture.jsonl"), "127.0.0.1:3306", "127.0.0.1:3307", 2, 9, 7, 1.5, "max",
                List.of(insert, select), Map.of("Change user: needs the session's password, which is never captured", 2L),
                Map.of("ran as app, not as the captured user (no --user-map)", 1L), Map.of("1406", 1L), Map.of());
    }

    @Test
    void theTextNamesWhatDiffersWithItsExample() {
        StringWriter text = new StringWriter();
        CompareReport.print(new PrintWriter(text), result());

        assertThat(text.toString()).startsWith("Compared capture.jsonl on A 127.0.0.1:3306 and B 127.0.0.1:3307: 2 sessions,"
                + " 9 statements in 1.500 s (speed max, one statement at a time in the capture's order)\n"
                + "  7 compared, 2 not replayed; answers differ for 1 of 2 statements (by digest)\n")
                .contains("  Execute     00000000000000A1      1 / 4      INSERT INTO t (v) VALUES (?)\n"
                        + "      first in session 7: INSERT INTO t (v) VALUES (?)\n"
                        + "      params: [\"abcdefgh\"]\n"
                        + "      A error 1406 (Data too long for column 'v' at row 1); B OK, 1 affected\n")
                .containsPattern("Query +00000000000000B2 +3 +0 +0\\.200 +0\\.800 +0\\.200 +0\\.800 +4\\.00  SELECT v")
                .contains("not replayed (statements, why):\n         2  Change user: needs the session's password")
                .contains("sessions not replayed as captured (sessions, why):\n         1  ran as app");
        assertThat(result().exitStatus()).isEqualTo(1);
    }

    @Test
    void jsonAndThePageCarryTheSameFigures() throws Exception {
        Map<String, Object> json = object(JsonText.parse(CompareJson.render(result())));
        Path html = dir.resolve("compare.html");
        CompareHtml.write(html, result());
        ReportPage page = ReportPage.read(html);

        assertThat(json).containsEntry("differing_digests", 1L).containsEntry("compared", 7L);
        List<?> digests = (List<?>) json.get("digests");
        Map<String, Object> insert = object(digests.get(0));
        assertThat(object(insert.get("first_difference"))).containsEntry("params", List.of("abcdefgh"))
                .containsEntry("session", 7L);
        assertThat(object(insert.get("a"))).containsEntry("p99_ms", 2.0);
        assertThat(object(insert.get("b"))).containsEntry("p99_ms", 1.0);
        assertThat(insert).containsEntry("p99_ratio", 0.5);

        Element chart = page.chart("p99-ratio");
        assertThat(chart.getAttribute("data-x-scale")).isEqualTo("log2");
        NodeList groups = chart.getElementsByTagName("g");
        assertThat(groups.getLength()).isEqualTo(digests.size());
        for (int i = 0; i < groups.getLength(); i++) {
            Element bar = (Element) groups.item(i);
            assertThat(Double.parseDouble(bar.getAttribute("data-value"))).as(bar.getAttribute("data-label"))
                    .isCloseTo(((Number) object(digests.get(i)).get("p99_ratio")).doubleValue(), within(0.0005));
        }
        String text = Files.readString(html);
        assertThat(text).contains("Answers that differ: 1 of 2 statements", "params: [&quot;abcdefgh&quot;]",
                "<tr class=\"bad\">");
    }
}
