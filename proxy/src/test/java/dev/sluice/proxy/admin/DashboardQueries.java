package dev.sluice.proxy.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The PromQL a Grafana dashboard JSON runs (panel targets' {@code expr}, template variables'
 * queries), read far enough to tell which metrics and labels each query names: selectors with
 * their label matchers, grouping and matching label lists ({@code by}, {@code on},
 * {@code group_left}...), and bare metric names. Not a PromQL parser: enough for the queries a
 * dashboard holds, and strict where it matters (an identifier it cannot place is taken for a
 * metric name, so it is checked rather than skipped).
 */
final class DashboardQueries {

    /** One label matcher of a selector: {@code name op "value"}. */
    record LabelMatcher(String label, String op, String value) {
    }

    /** A metric named in a query, with the matchers of its selector (none for a bare name). */
    record Selector(String metric, List<LabelMatcher> matchers) {
    }

    /** One query: the panel it is in, its text, the metrics it selects and the labels it groups or matches by. */
    record Query(String panel, String expr, List<Selector> selectors, Set<String> groupingLabels) {
    }

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");
    private static final Pattern SELECTOR = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*\\{([^}]*)}");
    private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern GROUPING = Pattern.compile(
            "\\b(by|without|on|ignoring|group_left|group_right)\\s*\\(([^)]*)\\)");
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\(\\s*(.+?)\\s*,\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset");

    private DashboardQueries() {
    }

    static List<Query> read(Path dashboard) throws IOException {
        JsonNode root = JsonMapper.builder().build().readTree(dashboard.toFile());
        List<Query> queries = new ArrayList<>();
        for (JsonNode panel : panels(root.path("panels"), new ArrayList<>())) {
            for (JsonNode target : panel.path("targets")) {
                if (target.hasNonNull("expr")) {
                    queries.add(parse(panel.path("title").asText(), target.get("expr").asText()));
                }
            }
        }
        for (JsonNode variable : root.path("templating").path("list")) {
            JsonNode query = variable.path("query");
            String text = query.isObject() ? query.path("query").asText() : "";
            Matcher values = LABEL_VALUES.matcher(text);
            if (values.matches()) {
                Query inner = parse("variable " + variable.path("name").asText(), values.group(1));
                Set<String> labels = new LinkedHashSet<>(inner.groupingLabels());
                labels.add(values.group(2));
                queries.add(new Query(inner.panel(), text, inner.selectors(), labels));
            } else if (!text.isEmpty()) {
                queries.add(parse("variable " + variable.path("name").asText(), text));
            }
        }
        return queries;
    }

    private static List<JsonNode> panels(JsonNode list, List<JsonNode> into) {
        for (JsonNode panel : list) {
            into.add(panel);
            panels(panel.path("panels"), into);
        }
        return into;
    }

    static Query parse(String panel, String expr) {
        List<Selector> selectors = new ArrayList<>();
        Set<String> grouping = new LinkedHashSet<>();
        StringBuilder rest = new StringBuilder();
        Matcher m = SELECTOR.matcher(expr);
        while (m.find()) {
            List<LabelMatcher> matchers = new ArrayList<>();
            Matcher each = MATCHER.matcher(m.group(2));
            while (each.find()) {
                matchers.add(new LabelMatcher(each.group(1), each.group(2), each.group(3).replace("\\\"", "\"")));
            }
            selectors.add(new Selector(m.group(1), matchers));
            m.appendReplacement(rest, " ");
        }
        m.appendTail(rest);
        String remaining = STRING.matcher(rest).replaceAll(" ").replaceAll("\\[[^]]*]", " ");
        Matcher g = GROUPING.matcher(remaining);
        StringBuilder withoutGrouping = new StringBuilder();
        while (g.find()) {
            for (String label : g.group(2).split(",")) {
                if (!label.isBlank()) {
                    grouping.add(label.trim());
                }
            }
            g.appendReplacement(withoutGrouping, " ");
        }
        g.appendTail(withoutGrouping);
        String code = withoutGrouping.toString();
        Matcher id = IDENTIFIER.matcher(code);
        while (id.find()) {
            String name = id.group();
            boolean call = code.substring(id.end()).stripLeading().startsWith("(");
            boolean number = id.start() > 0 && Character.isDigit(code.charAt(id.start() - 1));
            if (!call && !number && !KEYWORDS.contains(name)) {
                selectors.add(new Selector(name, List.of()));
            }
        }
        return new Query(panel, expr, selectors, grouping);
    }
}
