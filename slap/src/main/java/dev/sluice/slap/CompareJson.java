package dev.sluice.slap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code --json FILE} of a comparison: every statement (command and digest) with its counts, both
 * servers' p50 and p99 and their ratios, and its first difference; what was not replayed; how
 * sessions were opened otherwise than captured. Milliseconds and ratios carry three decimals; a
 * figure that is not a number (a ratio over no time) is null.
 */
final class CompareJson {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private CompareJson() {
    }

    static void write(Path file, CompareResult result) {
        try {
            Files.writeString(file, render(result));
        } catch (IOException e) {
            throw new SlapException("Could not write json file: " + file + ": " + e.getMessage(), 1, e);
        }
    }

    static String render(CompareResult r) {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("tool", "sluice slap --compare");
        report.put("capture", r.file().toString());
        report.put("a", r.a());
        report.put("b", r.b());
        report.put("speed", r.speed());
        report.put("sessions", r.sessions());
        report.put("statements", r.statements());
        report.put("compared", r.compared());
        report.put("seconds", decimal(r.seconds()));
        report.put("differing_digests", r.differing().size());
        report.put("digests", r.digests().stream().map(CompareJson::digest).toList());
        report.put("not_replayed", r.notReplayed());
        report.put("session_notes", r.sessionNotes());
        report.put("errors_a", r.errorsA());
        report.put("errors_b", r.errorsB());
        try {
            return JSON.writeValueAsString(report) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the report is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static Map<String, Object> digest(DigestComparison d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("command", d.command());
        m.put("digest", d.digest());
        m.put("text", d.text());
        m.put("compared", d.compared());
        m.put("differing", d.differing());
        m.put("order_only", d.orderOnly());
        m.put("a", side(d.p50A(), d.p99A(), d.latencyA().getTotalCount()));
        m.put("b", side(d.p50B(), d.p99B(), d.latencyB().getTotalCount()));
        m.put("p50_ratio", decimal(d.p50Ratio()));
        m.put("p99_ratio", decimal(d.p99Ratio()));
        if (d.first() != null) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("session", d.first().session());
            e.put("sql", d.first().sql());
            e.put("params", d.first().params());
            e.put("difference", d.first().difference());
            m.put("first_difference", e);
        }
        return m;
    }

    private static Map<String, Object> side(double p50, double p99, long count) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("count", count);
        s.put("p50_ms", decimal(p50));
        s.put("p99_ms", decimal(p99));
        return s;
    }

    private static BigDecimal decimal(double value) {
        return Double.isFinite(value) ? BigDecimal.valueOf(value).setScale(3, RoundingMode.HALF_UP) : null;
    }
}
