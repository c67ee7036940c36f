package dev.sluice.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import org.snakeyaml.engine.v2.nodes.Node;

/**
 * One scalar value after env interpolation, with where it was written. Each conversion returns
 * empty after recording a problem, so reading goes on and all problems are reported together.
 */
final class YamlScalar {

    private final String text;
    private final String raw;
    private final Node node;
    private final String path;
    private final Problems problems;

    YamlScalar(String text, String raw, Node node, String path, Problems problems) {
        this.text = text;
        this.raw = raw;
        this.node = node;
        this.path = path;
        this.problems = problems;
    }

    String text() {
        return text;
    }

    int line() {
        return node.getStartMark().map(m -> m.getLine() + 1).orElse(0);
    }

    Optional<Integer> integer(long min, long max) {
        return convert(t -> Scalars.integer(t, min, max));
    }

    Optional<Integer> byteSize(int min, int max) {
        return convert(t -> Scalars.byteSize(t, min, max));
    }

    Optional<Boolean> bool() {
        return convert(Scalars::bool);
    }

    Optional<Duration> duration(Duration min, Duration max) {
        return convert(t -> Scalars.duration(t, min, max));
    }

    Optional<String> name() {
        return convert(Scalars::name);
    }

    <E extends Enum<E>> Optional<E> enumValue(Class<E> type) {
        return convert(t -> Messages.parseConfigName(type, t));
    }

    /** A path as written, resolved against {@code base} when relative and a base is known. */
    Optional<Path> path(Path base) {
        if (text.isEmpty()) {
            fail("empty path (expected: a file path)");
            return Optional.empty();
        }
        try {
            Path written = Path.of(text);
            return Optional.of(base == null || written.isAbsolute() ? written : base.resolve(written));
        } catch (InvalidPathException e) {
            fail(Messages.quote(text) + " is not a file path (" + e.getReason() + ")");
            return Optional.empty();
        }
    }

    <T> Optional<T> convert(Function<String, T> parser) {
        try {
            return Optional.of(parser.apply(text));
        } catch (IllegalArgumentException e) {
            fail(e.getMessage());
            return Optional.empty();
        }
    }

    /** Records a problem at this value; if the text came from env references, says from what. */
    void fail(String message) {
        problems.at(node, path, raw.equals(text) ? message : message + ", from " + Messages.quote(raw));
    }
}
