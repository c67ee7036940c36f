package dev.sluice.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.Node;

/** Collects problems while a config is read, so one run reports all of them at once. */
final class Problems {

    private final String source;
    private final List<ConfigProblem> found = new ArrayList<>();

    Problems(String source) {
        this.source = source;
    }

    String source() {
        return source;
    }

    void at(Node node, String path, String message) {
        at(node.getStartMark(), path, message);
    }

    /** Snakeyaml counts lines and columns from 0; people and editors count from 1. */
    void at(Optional<Mark> mark, String path, String message) {
        found.add(mark.map(m -> new ConfigProblem(source, m.getLine() + 1, m.getColumn() + 1, path, message))
                .orElseGet(() -> ConfigProblem.unplaced(source, path, message)));
    }

    void unplaced(String path, String message) {
        found.add(ConfigProblem.unplaced(source, path, message));
    }

    int count() {
        return found.size();
    }

    void throwIfAny() {
        if (!found.isEmpty()) {
            throw exception(null);
        }
    }

    ConfigException exception(Throwable cause) {
        return new ConfigException(found, cause);
    }
}
