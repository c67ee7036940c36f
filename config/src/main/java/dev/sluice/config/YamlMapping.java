package dev.sluice.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * A YAML mapping read against the keys it may hold. Unknown and duplicate keys are reported when
 * it is opened; a missing or null mapping reads as empty, so every key takes its default.
 */
final class YamlMapping {

    private final Node node;
    private final String path;
    private final List<String> keys;
    private final Problems problems;
    private final EnvInterpolator env;
    private final Map<String, NodeTuple> entries = new LinkedHashMap<>();
    private boolean usable = true;

    private YamlMapping(Node node, String path, List<String> keys, Problems problems, EnvInterpolator env) {
        this.node = node;
        this.path = path;
        this.keys = keys;
        this.problems = problems;
        this.env = env;
    }

    /**
     * Opens a mapping. {@code node} may be null (key absent). Top-level keys starting with
     * {@code x-} are skipped, so a file can hold anchors for merge keys ({@code <<: *defaults}).
     */
    static YamlMapping open(Node node, String path, List<String> keys, Problems problems, EnvInterpolator env) {
        YamlMapping mapping = new YamlMapping(node, path, keys, problems, env);
        if (node == null || isNull(node)) {
            return mapping;
        }
        if (!(node instanceof MappingNode map)) {
            problems.at(node, path, "found " + describe(node) + " (expected: a mapping with keys "
                    + String.join(", ", keys) + ")");
            mapping.usable = false;
            return mapping;
        }
        for (NodeTuple entry : map.getValue()) {
            mapping.add(entry);
        }
        return mapping;
    }

    private void add(NodeTuple entry) {
        Node keyNode = entry.getKeyNode();
        if (!(keyNode instanceof ScalarNode scalarKey)) {
            problems.at(keyNode, path, "found " + describe(keyNode) + " as a key (" + Messages.oneOf(keys) + ")");
            return;
        }
        String key = scalarKey.getValue();
        if (path.isEmpty() && key.startsWith("x-")) {
            return;
        }
        NodeTuple first = entries.get(key);
        if (first != null) {
            problems.at(keyNode, path, "duplicate key " + Messages.quote(key) + " (first at line "
                    + line(first.getKeyNode()) + ")");
        } else if (!keys.contains(key)) {
            problems.at(keyNode, path, "unknown key " + Messages.quote(key) + " (" + Messages.oneOf(keys) + ")");
        } else {
            entries.put(key, entry);
        }
    }

    /** False when something other than a mapping was found (already reported). */
    boolean usable() {
        return usable;
    }

    /** The key and value as written, null when the key is absent. */
    NodeTuple entry(String key) {
        return entries.get(key);
    }

    /** The mapping's own node, or null when it was absent from the file. */
    Node node() {
        return node;
    }

    String pathOf(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** The value node, absent when the key is absent or its value is null. */
    Optional<Node> value(String key) {
        NodeTuple entry = entries.get(key);
        return entry == null || isNull(entry.getValueNode()) ? Optional.empty() : Optional.of(entry.getValueNode());
    }

    YamlMapping section(String key, List<String> sectionKeys) {
        return open(value(key).orElse(null), pathOf(key), sectionKeys, problems, env);
    }

    /** The items of a list; an absent or null list has none. */
    List<Node> list(String key, String expected) {
        Optional<Node> value = value(key);
        if (value.isEmpty()) {
            return List.of();
        }
        if (value.get() instanceof SequenceNode sequence) {
            return sequence.getValue();
        }
        problems.at(value.get(), pathOf(key), "found " + describe(value.get()) + " (expected: a list of " + expected + ")");
        return List.of();
    }

    /** An optional scalar: empty when absent, null, or not usable (a problem is then recorded). */
    Optional<YamlScalar> scalar(String key, String expected) {
        return value(key).flatMap(v -> scalar(v, pathOf(key), expected, problems, env));
    }

    /** A scalar that must be there: a missing key or a null value is a problem. */
    Optional<YamlScalar> required(String key, String expected) {
        NodeTuple entry = entries.get(key);
        if (entry == null) {
            missing(key, expected);
            return Optional.empty();
        }
        if (isNull(entry.getValueNode())) {
            problems.at(entry.getValueNode(), pathOf(key), "no value (expected: " + expected + ")");
            return Optional.empty();
        }
        return scalar(entry.getValueNode(), pathOf(key), expected, problems, env);
    }

    /** Reports a required key as missing, at the start of this mapping. */
    void missing(String key, String expected) {
        if (!usable) {
            return;
        }
        String message = "missing key " + Messages.quote(key) + " (expected: " + expected + ")";
        if (node != null) {
            problems.at(node, path, message);
        } else {
            problems.unplaced(path, message);
        }
    }

    /** Reports a problem about this whole mapping, e.g. from a record's cross-field check. */
    void fail(String message) {
        if (node != null) {
            problems.at(node, path, message);
        } else {
            problems.unplaced(path, message);
        }
    }

    /**
     * Builds the record for this mapping unless problems were found since {@code problemsBefore}
     * (its values would be stand-ins); the record's own cross-field check is reported here.
     */
    <T> T build(int problemsBefore, Supplier<T> make, T fallback) {
        if (problems.count() > problemsBefore) {
            return fallback;
        }
        try {
            return make.get();
        } catch (IllegalArgumentException e) {
            fail(e.getMessage());
            return fallback;
        }
    }

    static Optional<YamlScalar> scalar(Node node, String path, String expected, Problems problems, EnvInterpolator env) {
        if (!(node instanceof ScalarNode scalar)) {
            problems.at(node, path, "found " + describe(node) + " (expected: " + expected + ")");
            return Optional.empty();
        }
        try {
            String text = env.interpolate(scalar.getValue());
            return Optional.of(new YamlScalar(text, scalar.getValue(), node, path, problems));
        } catch (IllegalArgumentException e) {
            problems.at(node, path, e.getMessage());
            return Optional.empty();
        }
    }

    /** A plain empty, {@code ~} or {@code null}: YAML's null, which we read as "not given". */
    static boolean isNull(Node node) {
        return node instanceof ScalarNode scalar && scalar.isPlain() && Tag.NULL.equals(scalar.getTag());
    }

    static String describe(Node node) {
        return switch (node) {
            case ScalarNode scalar -> Messages.quote(scalar.getValue());
            case SequenceNode ignored -> "a list";
            case MappingNode ignored -> "a mapping";
            default -> "a " + node.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }

    static int line(Node node) {
        return node.getStartMark().map(m -> m.getLine() + 1).orElse(0);
    }
}
