package dev.sluice.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the proxy writes down about the statements it carries.
 *
 * @param enabled     capture from start-up (the admin port can switch it at run time)
 * @param file        where to write; required when enabled
 * @param format      one JSON object per line, or MySQL's slow query log
 * @param sql         how much of each statement's text is kept
 * @param sampleRate  the share of sessions captured, more than 0 up to 1; a sampled session is
 *                    captured whole (as Percona's {@code log_slow_rate_type=session}), so it replays
 * @param minDuration only statements that took at least this long (0: every statement)
 * @param users       only sessions of these users (empty: all)
 * @param schemas     only statements run with one of these default schemas (empty: all)
 * @param backends    only statements that ran on one of these backends (empty: all)
 * @param maxFileSize the file is rotated when it would grow past this (always: max_files of them bound the disk used)
 * @param maxFiles    files kept, the current one included; older ones are deleted
 * @param queueSize   statements waiting for the writer; when full, new ones are dropped and counted
 */
public record CaptureConfig(
        boolean enabled,
        Optional<Path> file,
        Format format,
        SqlText sql,
        double sampleRate,
        Duration minDuration,
        Set<String> users,
        Set<String> schemas,
        Set<String> backends,
        long maxFileSize,
        int maxFiles,
        int queueSize) {

    public static final long DEFAULT_MAX_FILE_SIZE = 1L << 30;
    public static final long MIN_FILE_SIZE = 1024;
    public static final long MAX_FILE_SIZE = 1L << 40;
    public static final int DEFAULT_MAX_FILES = 10;
    public static final int MAX_FILES = 1000;
    public static final int DEFAULT_QUEUE_SIZE = 16_384;
    public static final int MAX_QUEUE_SIZE = 1 << 24;
    public static final Duration MAX_MIN_DURATION = Duration.ofDays(1);

    /** The capture file's layout. */
    public enum Format {
        /** One JSON object per statement and line. */
        JSONL,
        /** MySQL's slow query log, as pt-query-digest and mysqldumpslow read it. */
        SLOWLOG;

        public String configName() {
            return Messages.configName(this);
        }
    }

    /** How much statement text reaches the file. */
    public enum SqlText {
        /** The statement as sent, secrets redacted. */
        FULL,
        /** Only the normalized statement (literals replaced by {@code ?}). */
        DIGEST,
        /** No text, only the digest's hash. */
        NONE;

        public String configName() {
            return Messages.configName(this);
        }
    }

    public CaptureConfig {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(minDuration, "min_duration");
        users = Set.copyOf(users);
        schemas = Set.copyOf(schemas);
        backends = Set.copyOf(backends);
        if (enabled && file.isEmpty()) {
            throw new IllegalArgumentException("file: missing (expected: a file path when capture is enabled)");
        }
        if (!(sampleRate > 0 && sampleRate <= 1)) {
            throw new IllegalArgumentException("sample_rate: " + sampleRate
                    + " is out of range (expected: a number more than 0 up to 1)");
        }
        if (minDuration.isNegative() || minDuration.compareTo(MAX_MIN_DURATION) > 0) {
            throw new IllegalArgumentException("min_duration: " + Durations.format(minDuration)
                    + " is out of range (expected: 0 to " + Durations.format(MAX_MIN_DURATION) + ")");
        }
        if (maxFileSize < MIN_FILE_SIZE || maxFileSize > MAX_FILE_SIZE) {
            throw new IllegalArgumentException("max_file_size: " + maxFileSize + " is out of range (expected: "
                    + ByteSizes.format(MIN_FILE_SIZE) + " to " + ByteSizes.format(MAX_FILE_SIZE)
                    + " bytes: the file is always rotated, so capture never fills the disk)");
        }
        if (maxFiles < 1 || maxFiles > MAX_FILES) {
            throw new IllegalArgumentException("max_files: " + maxFiles + " is out of range (expected: an integer from 1 to "
                    + MAX_FILES + ")");
        }
        if (queueSize < 1 || queueSize > MAX_QUEUE_SIZE) {
            throw new IllegalArgumentException("queue_size: " + queueSize
                    + " is out of range (expected: an integer from 1 to " + MAX_QUEUE_SIZE + ")");
        }
    }

    /** Capture off; every other setting at its default. */
    public static CaptureConfig defaults() {
        return new CaptureConfig(false, Optional.empty(), Format.JSONL, SqlText.FULL, 1.0, Duration.ZERO, Set.of(),
                Set.of(), Set.of(), DEFAULT_MAX_FILE_SIZE, DEFAULT_MAX_FILES, DEFAULT_QUEUE_SIZE);
    }

    /** Full SQL to {@code file} as JSON lines, every session, every statement. */
    public static CaptureConfig jsonl(Path file) {
        return defaults().enabledAt(file);
    }

    /** These settings, capturing to {@code newFile}. */
    public CaptureConfig enabledAt(Path newFile) {
        return new CaptureConfig(true, Optional.of(newFile), format, sql, sampleRate, minDuration, users, schemas,
                backends, maxFileSize, maxFiles, queueSize);
    }

    public CaptureConfig withEnabled(boolean on) {
        return new CaptureConfig(on, file, format, sql, sampleRate, minDuration, users, schemas, backends, maxFileSize,
                maxFiles, queueSize);
    }

    public CaptureConfig withFormat(Format newFormat) {
        return new CaptureConfig(enabled, file, newFormat, sql, sampleRate, minDuration, users, schemas, backends,
                maxFileSize, maxFiles, queueSize);
    }

    public CaptureConfig withSql(SqlText newSql) {
        return new CaptureConfig(enabled, file, format, newSql, sampleRate, minDuration, users, schemas, backends,
                maxFileSize, maxFiles, queueSize);
    }

    public CaptureConfig withSampleRate(double rate) {
        return new CaptureConfig(enabled, file, format, sql, rate, minDuration, users, schemas, backends, maxFileSize,
                maxFiles, queueSize);
    }

    public CaptureConfig withMinDuration(Duration duration) {
        return new CaptureConfig(enabled, file, format, sql, sampleRate, duration, users, schemas, backends,
                maxFileSize, maxFiles, queueSize);
    }

    public CaptureConfig withFilters(Set<String> newUsers, Set<String> newSchemas, Set<String> newBackends) {
        return new CaptureConfig(enabled, file, format, sql, sampleRate, minDuration, newUsers, newSchemas, newBackends,
                maxFileSize, maxFiles, queueSize);
    }

    public CaptureConfig withRotation(long newMaxFileSize, int newMaxFiles) {
        return new CaptureConfig(enabled, file, format, sql, sampleRate, minDuration, users, schemas, backends,
                newMaxFileSize, newMaxFiles, queueSize);
    }

    public CaptureConfig withQueueSize(int size) {
        return new CaptureConfig(enabled, file, format, sql, sampleRate, minDuration, users, schemas, backends,
                maxFileSize, maxFiles, size);
    }
}
