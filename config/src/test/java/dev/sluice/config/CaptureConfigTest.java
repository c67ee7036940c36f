package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The capture section and the --capture flag: every key read, each mistake named with its line. */
class CaptureConfigTest {

    private static final String BACKEND = "backends: [{address: \"127.0.0.1:3306\"}]\n";

    private static List<String> problems(String yaml) {
        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse(BACKEND + yaml, "sluice.yaml", Map.of()));
        assertThat(e).as("a ConfigException for:\n" + yaml).isNotNull();
        return e.problems().stream().map(ConfigProblem::toString).toList();
    }

    @Test
    void readsEveryKey() {
        SluiceConfig config = ConfigLoader.parse(BACKEND + """
                capture:
                  enabled: true
                  file: /tmp/capture.log
                  format: slowlog
                  sql: digest
                  sample_rate: 0.25
                  min_duration: 100ms
                  users: [app, report]
                  schemas: [shop]
                  backends: [primary]
                  max_file_size: 64M
                  max_files: 3
                  queue_size: 1
                """, "sluice.yaml", Map.of());

        assertThat(config.capture()).isEqualTo(new CaptureConfig(true, java.util.Optional.of(Path.of("/tmp/capture.log")),
                CaptureConfig.Format.SLOWLOG, CaptureConfig.SqlText.DIGEST, 0.25, Duration.ofMillis(100),
                Set.of("app", "report"), Set.of("shop"), Set.of("primary"), 64L << 20, 3, 1));
    }

    @Test
    void offByDefaultAndARelativeFileIsTakenFromTheConfigFolder(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        assertThat(ConfigLoader.parse(BACKEND, "sluice.yaml", Map.of()).capture()).isEqualTo(CaptureConfig.defaults());
        Path file = dir.resolve("sluice.yaml");
        java.nio.file.Files.writeString(file, BACKEND + "capture: {enabled: true, file: logs/c.jsonl}\n");

        assertThat(ConfigLoader.load(file, Map.of()).capture().file()).contains(dir.toAbsolutePath().resolve("logs/c.jsonl"));
    }

    @Test
    void mistakesNameKeyAndLine() {
        assertThat(problems("""
                capture:
                  enabled: true
                  format: csv
                  sql: some
                  sample_rate: 0
                  min_duration: soon
                  max_file_size: 10
                  max_files: 0
                  queue_size: -1
                  users: app
                  colour: red
                """)).containsExactly(
                "sluice.yaml:4:11: capture.format: unknown value \"csv\" (expected one of: jsonl, slowlog)",
                "sluice.yaml:5:8: capture.sql: unknown value \"some\" (expected one of: full, digest, none)",
                "sluice.yaml:6:16: capture.sample_rate: 0 is out of range (expected: a number more than 0 up to 1, e.g. 0.1)",
                "sluice.yaml:7:17: capture.min_duration: \"soon\" is not a duration (expected: " + Durations.EXPECTED + ")",
                "sluice.yaml:8:18: capture.max_file_size: \"10\" is out of range (expected: a size from 1K to 1024G,"
                        + " e.g. 100M (0, never rotating, is not allowed: capture would fill the disk))",
                "sluice.yaml:9:14: capture.max_files: 0 is out of range (expected: an integer from 1 to 1000)",
                "sluice.yaml:10:15: capture.queue_size: -1 is out of range (expected: an integer from 1 to 16777216)",
                "sluice.yaml:11:10: capture.users: found \"app\" (expected: a list of user names)",
                "sluice.yaml:12:3: capture: unknown key \"colour\" (expected one of: enabled, file, format, sql,"
                        + " sample_rate, min_duration, users, schemas, backends, max_file_size, max_files, queue_size)");
    }

    @Test
    void enabledNeedsAFile() {
        assertThat(problems("capture:\n  enabled: true\n  sample_rate: abc\n")).containsExactly(
                "sluice.yaml:4:16: capture.sample_rate: \"abc\" is not a number (expected: a number more than 0 up to 1,"
                        + " e.g. 0.1)");
        assertThat(problems("capture:\n  enabled: true\n")).containsExactly(
                "sluice.yaml:3:3: capture: missing key \"file\" (expected: a file path when capture is enabled)");
    }

    @Test
    void theFlagTurnsCaptureOnWithItsOptions() {
        CaptureConfig base = CaptureConfig.defaults().withFilters(Set.of("app"), Set.of(), Set.of());

        CaptureConfig flag = CaptureFlag.parse("/tmp/c.log,format=slowlog,sql=none,sample_rate=.5,min_duration=1s,"
                + "max_file_size=1M,max_files=2,queue_size=100", base);

        assertThat(flag).isEqualTo(new CaptureConfig(true, java.util.Optional.of(Path.of("/tmp/c.log")),
                CaptureConfig.Format.SLOWLOG, CaptureConfig.SqlText.NONE, 0.5, Duration.ofSeconds(1), Set.of("app"),
                Set.of(), Set.of(), 1L << 20, 2, 100));
        assertThat(CaptureFlag.parse("c.jsonl", CaptureConfig.defaults())).isEqualTo(CaptureConfig.jsonl(Path.of("c.jsonl")));
    }

    @Test
    void flagMistakesNameTheFlagAndTheOption() {
        assertThatThrownBy(() -> CaptureFlag.parse("c.log,format=xml,sample_rate=2,color=red,queue_size", CaptureConfig.defaults()))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems()).map(ConfigProblem::toString)
                        .containsExactly(
                                "--capture \"c.log,format=xml,sample_rate=2,color=red,queue_size\": format: unknown value"
                                        + " \"xml\" (expected one of: jsonl, slowlog)",
                                "--capture \"c.log,format=xml,sample_rate=2,color=red,queue_size\": sample_rate: 2 is out"
                                        + " of range (expected: a number more than 0 up to 1, e.g. 0.1)",
                                "--capture \"c.log,format=xml,sample_rate=2,color=red,queue_size\": unknown option"
                                        + " \"color\" (expected one of: format, sql, sample_rate, min_duration,"
                                        + " max_file_size, max_files, queue_size)",
                                "--capture \"c.log,format=xml,sample_rate=2,color=red,queue_size\": \"queue_size\" is not"
                                        + " an option (expected: KEY=VALUE, KEY expected one of: format, sql, sample_rate,"
                                        + " min_duration, max_file_size, max_files, queue_size)"));
        assertThatThrownBy(() -> CaptureFlag.parse(",format=jsonl", CaptureConfig.defaults()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("empty path");
    }

    @Test
    void theRecordChecksItsOwnRanges() {
        assertThatThrownBy(() -> CaptureConfig.defaults().withEnabled(true))
                .hasMessage("file: missing (expected: a file path when capture is enabled)");
        assertThatThrownBy(() -> CaptureConfig.defaults().withSampleRate(1.5))
                .hasMessage("sample_rate: 1.5 is out of range (expected: a number more than 0 up to 1)");
        assertThatThrownBy(() -> CaptureConfig.defaults().withQueueSize(0))
                .hasMessage("queue_size: 0 is out of range (expected: an integer from 1 to 16777216)");
    }
}
