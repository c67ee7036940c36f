package dev.sluice.config;

import java.util.Objects;

/**
 * One thing wrong with a configuration: where it is (source, 1-based line and column, key path)
 * and what was found against what was expected. Line and column are 0 when the problem has no
 * place in a file (a quick-start flag, a file that cannot be read); the path is empty when the
 * problem concerns the whole source.
 */
public record ConfigProblem(String source, int line, int column, String path, String message) {

    public ConfigProblem {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(message, "message");
        if (line < 0 || column < 0) {
            throw new IllegalArgumentException("line:column " + line + ":" + column + " (expected: >= 0)");
        }
    }

    /** A problem with no line, e.g. in a command-line flag. */
    public static ConfigProblem unplaced(String source, String path, String message) {
        return new ConfigProblem(source, 0, 0, path, message);
    }

    public boolean hasPosition() {
        return line > 0;
    }

    /** {@code sluice.yaml:7:14: backends[1].weight: "heavy" is not a number (expected: ...)}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(source);
        if (hasPosition()) {
            text.append(':').append(line).append(':').append(column);
        }
        text.append(": ");
        if (!path.isEmpty()) {
            text.append(path).append(": ");
        }
        return text.append(message).toString();
    }
}
