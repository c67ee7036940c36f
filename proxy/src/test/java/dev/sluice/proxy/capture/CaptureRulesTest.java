package dev.sluice.proxy.capture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.CaptureConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sampling, minimum duration, filters and rotation decide what reaches which file. */
class CaptureRulesTest {

    private static final Pattern SESSION = Pattern.compile("\"session\":(\\d+),");
    private static final Pattern SQL = Pattern.compile("\"sql\":\"([^\"]*)\"");

    @TempDir
    Path dir;

    private static String field(Pattern pattern, String line) {
        Matcher m = pattern.matcher(line);
        assertThat(m.find()).as(line).isTrue();
        return m.group(1);
    }

    @Test
    void samplingKeepsWholeSessions() throws Exception {
        CaptureHarness capture = new CaptureHarness(CaptureConfig.jsonl(dir.resolve("c.jsonl")).withSampleRate(0.5));
        for (int id = 1; id <= 400; id++) {
            TestSession session = new TestSession(id, "app", null);
            capture.observer().onSessionStart(session);
            for (int i = 0; i < 3; i++) {
                capture.run(session, Frames.query("SELECT " + i), Frames.rows(1), 10);
            }
        }

        Map<String, Integer> perSession = new TreeMap<>();
        for (String line : capture.finish()) {
            perSession.merge(field(SESSION, line), 1, Integer::sum);
        }

        // 400 sessions at 0.5: 200 expected, standard deviation 10; outside 120..280 is 8 deviations away.
        assertThat(perSession.size()).isBetween(120, 280);
        assertThat(perSession.values()).containsOnly(3);
    }

    @Test
    void minimumDurationKeepsOnlySlowStatements() throws Exception {
        CaptureHarness capture = new CaptureHarness(CaptureConfig.jsonl(dir.resolve("c.jsonl"))
                .withMinDuration(Duration.ofMillis(50)));
        TestSession session = new TestSession(1, "app", null);
        capture.run(session, Frames.query("SELECT 'fast'"), Frames.rows(1), 49_999);
        capture.run(session, Frames.query("SELECT 'slow'"), Frames.rows(1), 50_000);
        capture.run(session, Frames.prepare("SELECT ?, ?"), Frames.prepareOk(1, 2), 10);
        capture.run(session, Frames.execute(1, true, 1L, "slow execute"), Frames.rows(1), 80_000);
        capture.noResponse(session, Frames.close(1));

        List<String> lines = capture.finish();

        assertThat(lines).hasSize(2);
        assertThat(field(SQL, lines.get(0))).isEqualTo("SELECT 'slow'");
        assertThat(lines.get(1)).contains("\"command\":\"Execute\"", "\"params\":[1,\"slow execute\"]");
    }

    @Test
    void filtersByUserSchemaAndBackend() throws Exception {
        CaptureHarness capture = new CaptureHarness(CaptureConfig.jsonl(dir.resolve("c.jsonl"))
                .withFilters(Set.of("app"), Set.of("shop"), Set.of("replica1")));
        TestSession app = new TestSession(1, "app", "shop").backend("replica1");
        TestSession other = new TestSession(2, "report", "shop").backend("replica1");
        capture.run(app, Frames.query("SELECT 'kept'"), Frames.rows(1), 10);
        capture.run(other, Frames.query("SELECT 'other user'"), Frames.rows(1), 10);
        app.schema("blog");
        // Prepared in a schema that is filtered out: followed, not written, so its execute later has its text.
        capture.run(app, Frames.prepare("SELECT ?, 'prepared elsewhere' WHERE ? IS NOT NULL"), Frames.prepareOk(3, 2), 10);
        capture.run(app, Frames.query("SELECT 'other schema'"), Frames.rows(1), 10);
        app.schema("shop").backend("primary");
        capture.run(app, Frames.query("SELECT 'other backend'"), Frames.rows(1), 10);
        app.backend("replica1");
        capture.run(app, Frames.execute(3, true, 7L, "x"), Frames.rows(1), 10);

        List<String> lines = capture.finish();

        assertThat(lines).hasSize(2);
        assertThat(field(SQL, lines.get(0))).isEqualTo("SELECT 'kept'");
        assertThat(lines.get(1)).contains("\"sql\":\"SELECT ?, 'prepared elsewhere' WHERE ? IS NOT NULL\"",
                "\"params\":[7,\"x\"]");
    }

    @Test
    void rotationKeepsTheNewestFilesUpToTheirSize() throws Exception {
        Path file = dir.resolve("c.jsonl");
        CaptureHarness capture = new CaptureHarness(CaptureConfig.jsonl(file).withRotation(2048, 3));
        TestSession session = new TestSession(1, "app", null);
        for (int i = 0; i < 200; i++) {
            capture.run(session, Frames.query("SELECT " + i), Frames.rows(1), 10);
        }
        List<String> current = capture.finish();

        assertThat(Files.exists(dir.resolve("c.jsonl.3"))).isFalse();
        List<String> kept = new ArrayList<>();
        for (Path part : List.of(dir.resolve("c.jsonl.2"), dir.resolve("c.jsonl.1"), file)) {
            assertThat(Files.size(part)).as(part.toString()).isPositive().isLessThanOrEqualTo(2048);
            kept.addAll(Files.readAllLines(part));
        }
        assertThat(current).isNotEmpty();
        // The files hold the last statements, in order, with none missing.
        int first = 200 - kept.size();
        for (int i = 0; i < kept.size(); i++) {
            assertThat(field(SQL, kept.get(i))).isEqualTo("SELECT " + (first + i));
        }
        assertThat(capture.control.stats().rotations()).isGreaterThanOrEqualTo(3);
        assertThat(capture.control.stats().writtenStatements()).isEqualTo(200);
    }
}
