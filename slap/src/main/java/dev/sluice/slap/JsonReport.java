package dev.sluice.slap;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code --json=FILE}: every figure of every run, machine readable. */
final class JsonReport {

    private final StringBuilder json = new StringBuilder();

    private JsonReport() {
    }

    static void write(Path file, SlapOptions options, SlapResult result) {
        try {
            Files.writeString(file, render(options, result));
        } catch (IOException e) {
            throw new SlapException("Could not write json file: " + file + ": " + e.getMessage(), 1, e);
        }
    }

    static String render(SlapOptions options, SlapResult result) {
        JsonReport r = new JsonReport();
        r.json.append("{\n  \"tool\": \"sluice slap\",\n  \"options\": {");
        r.field("concurrency", options.plannedConcurrency().toString()).comma();
        r.field("iterations", options.iterations()).comma();
        r.field("number_of_queries", options.numberOfQueries()).comma();
        r.field("load_type", quote(options.workload().autoGenerateSql() ? options.workload().loadType() : "query")).comma();
        r.field("commit", options.commit()).comma();
        r.field("detach", options.detach()).comma();
        r.field("time_seconds", options.timeSeconds()).comma();
        r.field("rate", number(options.rate()));
        r.json.append("},\n  \"runs\": [");
        for (int i = 0; i < result.runs().size(); i++) {
            r.json.append(i == 0 ? "\n    " : ",\n    ");
            r.run(result.runs().get(i));
        }
        r.json.append("\n  ],\n  \"sweeps\": [");
        for (int i = 0; i < result.sweeps().size(); i++) {
            SweepResult sweep = result.sweeps().get(i);
            r.json.append(i == 0 ? "\n    {" : ",\n    {");
            r.field("engine", quote(sweep.engine())).comma();
            r.field("clients", sweep.rows().stream().map(ConcurrencyResult::clients).toList().toString()).comma();
            r.field("knee", sweep.knee()).comma();
            r.field("stop_reason", quote(sweep.stopReason()));
            r.json.append('}');
        }
        r.json.append("\n  ]\n}\n");
        return r.json.toString();
    }

    private void run(ConcurrencyResult run) {
        json.append('{');
        field("engine", quote(run.engine())).comma();
        field("load_type", quote(run.loadType())).comma();
        field("clients", run.clients()).comma();
        field("queries_per_client", run.queriesPerClient()).comma();
        field("avg_seconds", MysqlslapFormat.seconds(run.avgMillis())).comma();
        field("min_seconds", MysqlslapFormat.seconds(run.minMillis())).comma();
        field("max_seconds", MysqlslapFormat.seconds(run.maxMillis())).comma();
        field("total_queries", run.totalQueries()).comma();
        field("queries_per_second", number(run.queriesPerSecond())).comma();
        json.append("\"latency_ms\": ");
        latency(run.latencyMicros());
        comma();
        json.append("\"errors\": ");
        errors(run.errors());
        comma();
        json.append("\"failed_connects\": ");
        errors(run.failedConnects());
        json.append(", \"iterations\": [");
        List<PhaseResult> iterations = run.iterations();
        for (int i = 0; i < iterations.size(); i++) {
            PhaseResult it = iterations.get(i);
            json.append(i == 0 ? "{" : ", {");
            field("seconds", number(it.nanos() / 1e9)).comma();
            field("queries", it.queries()).comma();
            field("reads", it.reads()).comma();
            field("writes", it.writes()).comma();
            field("others", it.others()).comma();
            field("commits", it.commits()).comma();
            field("reconnects", it.reconnects()).comma();
            field("errors", it.errorCount()).comma();
            field("failed_connects", it.failedConnectCount());
            json.append('}');
        }
        json.append("]}");
    }

    private void latency(Histogram h) {
        json.append('{');
        field("count", h.getTotalCount());
        if (h.getTotalCount() > 0) {
            comma();
            field("mean", number(h.getMean() / 1000)).comma();
            for (double p : new double[] {50, 90, 95, 99, 99.9}) {
                String name = "p" + (p == Math.rint(p) ? Integer.toString((int) p) : "999");
                field(name, number(h.getValueAtPercentile(p) / 1000.0)).comma();
            }
            field("max", number(h.getMaxValue() / 1000.0));
        }
        json.append('}');
    }

    private void errors(Map<String, ErrorTally.Entry> errors) {
        json.append('{');
        Iterator<Map.Entry<String, ErrorTally.Entry>> it = errors.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, ErrorTally.Entry> e = it.next();
            json.append(quote(e.getKey())).append(": {");
            field("count", e.getValue().count()).comma();
            field("message", quote(e.getValue().message()));
            json.append('}');
            if (it.hasNext()) {
                comma();
            }
        }
        json.append('}');
    }

    private JsonReport field(String name, Object value) {
        json.append('"').append(name).append("\": ").append(value);
        return this;
    }

    private void comma() {
        json.append(", ");
    }

    private static String number(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.3f", value) : "null";
    }

    static String quote(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
