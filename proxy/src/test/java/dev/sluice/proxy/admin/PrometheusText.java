package dev.sluice.proxy.admin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A parser for the Prometheus text exposition format 0.0.4
 * (https://prometheus.io/docs/instrumenting/exposition_formats/): # HELP and # TYPE lines, and
 * samples {@code name{label="value",...} value [timestamp]} with escaped label values. Strict: a
 * line it cannot read fails the test with the line number.
 */
final class PrometheusText {

    record Sample(String name, Map<String, String> labels, double value) {
    }

    final Map<String, String> types = new LinkedHashMap<>();
    final List<Sample> samples = new ArrayList<>();

    static PrometheusText parse(String text) {
        PrometheusText parsed = new PrometheusText();
        String[] lines = text.split("\n");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.isBlank()) {
                continue;
            }
            try {
                parsed.line(line);
            } catch (RuntimeException e) {
                throw new AssertionError("line " + (i + 1) + " is not Prometheus text: " + line + " (" + e.getMessage() + ")", e);
            }
        }
        return parsed;
    }

    private void line(String line) {
        if (line.startsWith("# TYPE ")) {
            String[] parts = line.substring(7).split(" ");
            if (parts.length != 2 || !List.of("counter", "gauge", "summary", "histogram", "untyped").contains(parts[1])) {
                throw new IllegalArgumentException("bad TYPE line");
            }
            types.put(parts[0], parts[1]);
            return;
        }
        if (line.startsWith("#")) {
            return;
        }
        int at = 0;
        while (at < line.length() && (Character.isLetterOrDigit(line.charAt(at)) || line.charAt(at) == '_' || line.charAt(at) == ':')) {
            at++;
        }
        String name = line.substring(0, at);
        if (name.isEmpty() || Character.isDigit(name.charAt(0))) {
            throw new IllegalArgumentException("no metric name");
        }
        Map<String, String> labels = new LinkedHashMap<>();
        if (at < line.length() && line.charAt(at) == '{') {
            at++;
            while (line.charAt(at) != '}') {
                int eq = line.indexOf('=', at);
                String label = line.substring(at, eq);
                if (!label.matches("[a-zA-Z_][a-zA-Z0-9_]*")) {
                    throw new IllegalArgumentException("bad label name " + label);
                }
                if (line.charAt(eq + 1) != '"') {
                    throw new IllegalArgumentException("label value not quoted");
                }
                StringBuilder value = new StringBuilder();
                int i = eq + 2;
                while (line.charAt(i) != '"') {
                    char c = line.charAt(i);
                    if (c == '\\') {
                        char next = line.charAt(++i);
                        value.append(next == 'n' ? '\n' : next);
                    } else {
                        value.append(c);
                    }
                    i++;
                }
                labels.put(label, value.toString());
                at = i + 1;
                if (line.charAt(at) == ',') {
                    at++;
                }
            }
            at++;
        }
        if (line.charAt(at) != ' ') {
            throw new IllegalArgumentException("no space before the value");
        }
        String[] rest = line.substring(at + 1).trim().split(" ");
        double value = switch (rest[0]) {
            case "NaN" -> Double.NaN;
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(rest[0]);
        };
        if (rest.length > 2) {
            throw new IllegalArgumentException("more than a value and a timestamp");
        }
        samples.add(new Sample(name, labels, value));
    }

    List<Sample> named(String name) {
        return samples.stream().filter(s -> s.name().equals(name)).toList();
    }
}
