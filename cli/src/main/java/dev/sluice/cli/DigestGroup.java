package dev.sluice.cli;

import dev.sluice.slap.CapturedEvent;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The statements of one digest in a capture (Query and Execute share a digest); commands without
 * a statement of their own (Prepare, Close stmt, Ping, ...) each form one group, as pt-query-digest
 * groups its "administrator command" entries.
 */
final class DigestGroup {

    final String key;
    final String digest;
    final String text;
    final Histogram micros = new Histogram(3);
    final Map<String, Long> commands = new TreeMap<>();
    final Map<String, Long> backends = new TreeMap<>();
    final Map<String, Long> schemas = new TreeMap<>();
    long totalMicros;
    long rowsSent;
    long rowsAffected;
    long errors;
    CapturedEvent slowest;

    private DigestGroup(String key, String digest, String text) {
        this.key = key;
        this.digest = digest;
        this.text = text;
    }

    static String keyOf(CapturedEvent e) {
        boolean statement = e.command().equals(CapturedEvent.QUERY) || e.command().equals(CapturedEvent.EXECUTE);
        return statement && e.digest() != null ? e.digest() : e.command();
    }

    static DigestGroup of(CapturedEvent e) {
        String key = keyOf(e);
        if (!key.equals(e.digest())) {
            return new DigestGroup(key, null, "administrator command: " + e.command());
        }
        return new DigestGroup(key, e.digest(), e.digestText() != null ? e.digestText() : e.sql());
    }

    void add(CapturedEvent e) {
        micros.recordValue(Math.max(1, e.durationMicros()));
        totalMicros += e.durationMicros();
        rowsSent += e.rowsSent();
        rowsAffected += e.rowsAffected();
        if (e.error() != 0) {
            errors++;
        }
        commands.merge(e.command(), 1L, Long::sum);
        backends.merge(e.backend() == null ? "(none)" : e.backend(), 1L, Long::sum);
        if (e.schema() != null) {
            schemas.merge(e.schema(), 1L, Long::sum);
        }
        if (slowest == null || e.durationMicros() > slowest.durationMicros()) {
            slowest = e;
        }
    }

    long count() {
        return micros.getTotalCount();
    }
}
