package dev.sluice.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.nodes.Node;

/** Reads the {@code capture} section; its value parsers are shared with the {@code --capture} flag. */
final class CaptureReader {

    static final List<String> KEYS = List.of("enabled", "file", "format", "sql", "sample_rate", "min_duration", "users",
            "schemas", "backends", "max_file_size", "max_files", "queue_size");
    static final String SAMPLE_RATE_EXPECTED = "a number more than 0 up to 1, e.g. 0.1";
    static final String MAX_FILE_SIZE_EXPECTED = "a size from 1K to 1024G, e.g. 100M (0, never rotating, is not allowed: capture would fill the disk)";

    private static final Pattern DECIMAL = Pattern.compile("[0-9]{1,9}(\\.[0-9]{1,9})?|\\.[0-9]{1,9}");

    private final Problems problems;
    private final EnvInterpolator env;
    private final Path baseDir;

    CaptureReader(Problems problems, EnvInterpolator env, Path baseDir) {
        this.problems = problems;
        this.env = env;
        this.baseDir = baseDir;
    }

    CaptureConfig read(YamlMapping capture) {
        int before = problems.count();
        CaptureConfig defaults = CaptureConfig.defaults();
        boolean enabled = capture.scalar("enabled", "true or false").flatMap(YamlScalar::bool).orElse(false);
        Optional<Path> file = capture.scalar("file", "a file path").flatMap(v -> v.path(baseDir));
        CaptureConfig.Format format = capture.scalar("format", "jsonl or slowlog")
                .flatMap(v -> v.enumValue(CaptureConfig.Format.class)).orElse(defaults.format());
        CaptureConfig.SqlText sql = capture.scalar("sql", "full, digest or none")
                .flatMap(v -> v.enumValue(CaptureConfig.SqlText.class)).orElse(defaults.sql());
        double sampleRate = capture.scalar("sample_rate", SAMPLE_RATE_EXPECTED)
                .flatMap(v -> v.convert(CaptureReader::sampleRate)).orElse(defaults.sampleRate());
        Duration minDuration = capture.scalar("min_duration", Durations.EXPECTED)
                .flatMap(v -> v.duration(Duration.ZERO, CaptureConfig.MAX_MIN_DURATION)).orElse(Duration.ZERO);
        Set<String> users = names(capture, "users", "user names");
        Set<String> schemas = names(capture, "schemas", "schema names");
        Set<String> backends = names(capture, "backends", "backend names");
        long maxFileSize = capture.scalar("max_file_size", MAX_FILE_SIZE_EXPECTED)
                .flatMap(v -> v.convert(CaptureReader::maxFileSize)).orElse(defaults.maxFileSize());
        int maxFiles = capture.scalar("max_files", Scalars.integerExpected(1, CaptureConfig.MAX_FILES))
                .flatMap(v -> v.integer(1, CaptureConfig.MAX_FILES)).orElse(defaults.maxFiles());
        int queueSize = capture.scalar("queue_size", Scalars.integerExpected(1, CaptureConfig.MAX_QUEUE_SIZE))
                .flatMap(v -> v.integer(1, CaptureConfig.MAX_QUEUE_SIZE)).orElse(defaults.queueSize());
        if (enabled && file.isEmpty() && problems.count() == before) {
            capture.missing("file", "a file path when capture is enabled");
        }
        return capture.build(before, () -> new CaptureConfig(enabled, file, format, sql, sampleRate, minDuration, users,
                schemas, backends, maxFileSize, maxFiles, queueSize), defaults);
    }

    private Set<String> names(YamlMapping capture, String key, String expected) {
        Set<String> names = new LinkedHashSet<>();
        List<Node> items = capture.list(key, expected);
        for (int i = 0; i < items.size(); i++) {
            YamlMapping.scalar(items.get(i), capture.pathOf(key) + "[" + i + "]", "a name", problems, env)
                    .flatMap(YamlScalar::name).ifPresent(names::add);
        }
        return names;
    }

    static double sampleRate(String text) {
        if (!DECIMAL.matcher(text).matches()) {
            throw new IllegalArgumentException(Messages.quote(text) + " is not a number (expected: "
                    + SAMPLE_RATE_EXPECTED + ")");
        }
        double rate = Double.parseDouble(text);
        if (!(rate > 0 && rate <= 1)) {
            throw new IllegalArgumentException(text + " is out of range (expected: " + SAMPLE_RATE_EXPECTED + ")");
        }
        return rate;
    }

    static long maxFileSize(String text) {
        long size = ByteSizes.parse(text);
        if (size < CaptureConfig.MIN_FILE_SIZE || size > CaptureConfig.MAX_FILE_SIZE) {
            throw new IllegalArgumentException(Messages.quote(text) + " is out of range (expected: "
                    + MAX_FILE_SIZE_EXPECTED + ")");
        }
        return size;
    }
}
