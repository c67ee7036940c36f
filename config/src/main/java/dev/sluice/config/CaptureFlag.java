package dev.sluice.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The {@code --capture FILE[,format=slowlog,sql=digest,...]} flag: capture on, to FILE, with any
 * of the {@code capture} section's scalar settings as KEY=VALUE after it. Values read as in the
 * file, and errors name the flag and the key.
 */
public final class CaptureFlag {

    public static final String FLAG = "--capture";
    public static final String FORM = "FILE[,format=jsonl|slowlog,sql=full|digest|none,sample_rate=R,min_duration=D,"
            + "max_file_size=S,max_files=N,queue_size=N]";
    static final List<String> OPTIONS = List.of("format", "sql", "sample_rate", "min_duration", "max_file_size",
            "max_files", "queue_size");

    private CaptureFlag() {
    }

    /**
     * {@code base} (the config file's capture section, or the defaults) turned on and changed as
     * the flag says.
     *
     * @throws ConfigException naming the flag, the option and what was expected
     */
    public static CaptureConfig parse(String spec, CaptureConfig base) {
        Objects.requireNonNull(spec, "spec");
        String source = FLAG + " " + Messages.quote(spec);
        List<ConfigProblem> problems = new ArrayList<>();
        String[] parts = spec.split(",", -1);
        Path file = QuickStart.value(source, "", parts[0], CaptureFlag::path, problems);
        CaptureConfig.Format format = base.format();
        CaptureConfig.SqlText sql = base.sql();
        double sampleRate = base.sampleRate();
        Duration minDuration = base.minDuration();
        long maxFileSize = base.maxFileSize();
        int maxFiles = base.maxFiles();
        int queueSize = base.queueSize();
        Set<String> seen = new HashSet<>();
        for (int i = 1; i < parts.length; i++) {
            int equals = parts[i].indexOf('=');
            String key = equals < 0 ? parts[i] : parts[i].substring(0, equals);
            String value = equals < 0 ? "" : parts[i].substring(equals + 1);
            if (equals < 0) {
                problems.add(ConfigProblem.unplaced(source, "", Messages.quote(parts[i])
                        + " is not an option (expected: KEY=VALUE, KEY " + Messages.oneOf(OPTIONS) + ")"));
                continue;
            }
            if (!OPTIONS.contains(key)) {
                problems.add(ConfigProblem.unplaced(source, "", "unknown option " + Messages.quote(key)
                        + " (" + Messages.oneOf(OPTIONS) + ")"));
                continue;
            }
            if (!seen.add(key)) {
                problems.add(ConfigProblem.unplaced(source, key, "given twice (expected: each option once)"));
                continue;
            }
            switch (key) {
                case "format" -> format = orElse(QuickStart.value(source, key, value,
                        t -> Messages.parseConfigName(CaptureConfig.Format.class, t), problems), format);
                case "sql" -> sql = orElse(QuickStart.value(source, key, value,
                        t -> Messages.parseConfigName(CaptureConfig.SqlText.class, t), problems), sql);
                case "sample_rate" -> sampleRate = orElse(QuickStart.value(source, key, value,
                        CaptureReader::sampleRate, problems), sampleRate);
                case "min_duration" -> minDuration = orElse(QuickStart.value(source, key, value,
                        t -> Scalars.duration(t, Duration.ZERO, CaptureConfig.MAX_MIN_DURATION), problems), minDuration);
                case "max_file_size" -> maxFileSize = orElse(QuickStart.value(source, key, value,
                        CaptureReader::maxFileSize, problems), maxFileSize);
                case "max_files" -> maxFiles = orElse(QuickStart.value(source, key, value,
                        t -> Scalars.integer(t, 1, CaptureConfig.MAX_FILES), problems), maxFiles);
                case "queue_size" -> queueSize = orElse(QuickStart.value(source, key, value,
                        t -> Scalars.integer(t, 1, CaptureConfig.MAX_QUEUE_SIZE), problems), queueSize);
                default -> throw new IllegalStateException("option " + key + " listed but not read");
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return new CaptureConfig(true, java.util.Optional.of(file), format, sql, sampleRate, minDuration, base.users(),
                base.schemas(), base.backends(), maxFileSize, maxFiles, queueSize);
    }

    private static <T> T orElse(T value, T fallback) {
        return value == null ? fallback : value;
    }

    private static Path path(String text) {
        if (text.isEmpty()) {
            throw new IllegalArgumentException("empty path (expected: " + FORM + ")");
        }
        try {
            return Path.of(text);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(Messages.quote(text) + " is not a file path (" + e.getReason() + ")");
        }
    }
}
