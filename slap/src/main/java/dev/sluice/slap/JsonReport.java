package dev.sluice.slap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --json=FILE}: every figure of every run, machine readable, written by Jackson. Seconds,
 * latencies and rates carry three decimals, as the text output does; a figure that is not a
 * number (a rate over no time) is null.
 */
final class JsonReport {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();
    private static final double[] PERCENTILES = {50, 90, 95, 99, 99.9};

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
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("tool", "sluice slap");
        report.put("options", options(options));
        report.put("runs", result.runs().stream().map(JsonReport::run).toList());
        report.put("sweeps", result.sweeps().stream().map(JsonReport::sweep).toList());
        try {
            return JSON.writeValueAsString(report) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the report is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static Map<String, Object> options(SlapOptions options) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("concurrency", options.plannedConcurrency());
        o.put("iterations", options.iterations());
        o.put("number_of_queries", options.numberOfQueries());
        o.put("load_type", options.workload().autoGenerateSql() ? options.workload().loadType() : "query");
        o.put("commit", options.commit());
        o.put("detach", options.detach());
        o.put("time_seconds", options.timeSeconds());
        o.put("rate", decimal(options.rate()));
        return o;
    }

    private static Map<String, Object> sweep(SweepResult sweep) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("engine", sweep.engine());
        s.put("clients", sweep.rows().stream().map(ConcurrencyResult::clients).toList());
        s.put("knee", sweep.knee());
        s.put("stop_reason", sweep.stopReason());
        return s;
    }

    private static Map<String, Object> run(ConcurrencyResult run) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("engine", run.engine());
        r.put("load_type", run.loadType());
        r.put("clients", run.clients());
        r.put("queries_per_client", run.queriesPerClient());
        r.put("avg_seconds", seconds(run.avgMillis()));
        r.put("min_seconds", seconds(run.minMillis()));
        r.put("max_seconds", seconds(run.maxMillis()));
        r.put("total_queries", run.totalQueries());
        r.put("queries_per_second", decimal(run.queriesPerSecond()));
        r.put("latency_ms", latency(run.latencyMicros()));
        r.put("errors", errors(run.errors()));
        r.put("failed_connects", errors(run.failedConnects()));
        List<Map<String, Object>> iterations = new ArrayList<>();
        for (PhaseResult phase : run.iterations()) {
            Map<String, Object> i = new LinkedHashMap<>();
            i.put("seconds", decimal(phase.nanos() / 1e9));
            i.put("queries", phase.queries());
            i.put("reads", phase.reads());
            i.put("writes", phase.writes());
            i.put("others", phase.others());
            i.put("commits", phase.commits());
            i.put("reconnects", phase.reconnects());
            i.put("errors", phase.errorCount());
            i.put("failed_connects", phase.failedConnectCount());
            if (!phase.intervals().isEmpty()) {
                i.put("intervals", phase.intervals().stream().map(JsonReport::interval).toList());
            }
            iterations.add(i);
        }
        r.put("iterations", iterations);
        return r;
    }

    private static Map<String, Object> interval(IntervalPoint point) {
        Map<String, Object> i = new LinkedHashMap<>();
        i.put("end_seconds", decimal(point.endSeconds()));
        i.put("seconds", decimal(point.seconds()));
        i.put("queries", point.queries());
        i.put("queries_per_second", decimal(point.queriesPerSecond()));
        i.put("errors", point.errors());
        i.put("p50_ms", decimal(point.p50Ms()));
        i.put("p95_ms", decimal(point.p95Ms()));
        i.put("p99_ms", decimal(point.p99Ms()));
        return i;
    }

    private static Map<String, Object> latency(Histogram h) {
        Map<String, Object> l = new LinkedHashMap<>();
        l.put("count", h.getTotalCount());
        if (h.getTotalCount() > 0) {
            l.put("mean", decimal(h.getMean() / 1000));
            for (double p : PERCENTILES) {
                String name = "p" + (p == Math.rint(p) ? Integer.toString((int) p) : "999");
                l.put(name, decimal(h.getValueAtPercentile(p) / 1000.0));
            }
            l.put("max", decimal(h.getMaxValue() / 1000.0));
        }
        return l;
    }

    private static Map<String, Object> errors(Map<String, ErrorTally.Entry> errors) {
        Map<String, Object> e = new LinkedHashMap<>();
        errors.forEach((code, entry) -> {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("count", entry.count());
            one.put("message", entry.message());
            e.put(code, one);
        });
        return e;
    }

    /** mysqlslap's seconds (whole milliseconds) as a number with three decimals. */
    private static BigDecimal seconds(long millis) {
        return BigDecimal.valueOf(millis, 3);
    }

    private static BigDecimal decimal(double value) {
        return Double.isFinite(value) ? BigDecimal.valueOf(value).setScale(3, RoundingMode.HALF_UP) : null;
    }
}
