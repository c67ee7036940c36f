package dev.sluice.config;

import java.util.Comparator;
import java.util.List;

/**
 * The one exception for a configuration that cannot be used. It carries every problem found, in
 * file order; its message is one problem per line, each naming source, line, column and key, e.g.
 * {@code sluice.yaml:7:14: backends[1].weight: "heavy" is not a number (expected: an integer >= 0)}.
 */
public final class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private static final Comparator<ConfigProblem> FILE_ORDER =
            Comparator.comparingInt(ConfigProblem::line).thenComparingInt(ConfigProblem::column);

    private final transient List<ConfigProblem> problems;

    public ConfigException(List<ConfigProblem> problems) {
        this(problems, null);
    }

    public ConfigException(List<ConfigProblem> problems, Throwable cause) {
        super(describe(sorted(problems)), cause);
        this.problems = sorted(problems);
    }

    public ConfigException(ConfigProblem problem) {
        this(List.of(problem));
    }

    /** All problems, sorted by line and column (unplaced ones first, in the order found). */
    public List<ConfigProblem> problems() {
        return problems;
    }

    private static List<ConfigProblem> sorted(List<ConfigProblem> problems) {
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a ConfigException needs at least one problem");
        }
        return problems.stream().sorted(FILE_ORDER).toList();
    }

    private static String describe(List<ConfigProblem> problems) {
        if (problems.size() == 1) {
            return problems.get(0).toString();
        }
        StringBuilder text = new StringBuilder(problems.size() + " configuration problems:");
        for (ConfigProblem problem : problems) {
            text.append("\n  ").append(problem);
        }
        return text.toString();
    }
}
