package dev.sluice.slap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * A comparison's figures as it runs: per command and digest, the executions, differences and both
 * sides' latencies, and the first difference with what it ran; statements played on neither side
 * by reason; errors per side. One thread.
 */
final class CompareTally {

    private static final class Row {
        final String command;
        final String digest;
        final String text;
        final Histogram a = new Histogram(3);
        final Histogram b = new Histogram(3);
        long compared;
        long differing;
        long orderOnly;
        DigestComparison.Example first;

        Row(CapturedEvent e) {
            command = e.command();
            digest = e.digest();
            text = e.digestText() != null ? e.digestText() : e.sql();
        }
    }

    private final Map<String, Row> rows = new HashMap<>();
    private final Map<String, Long> notReplayed = new TreeMap<>();
    private final Map<String, Long> errorsA = new TreeMap<>(ErrorTally::compareCodes);
    private final Map<String, Long> errorsB = new TreeMap<>(ErrorTally::compareCodes);
    private long compared;

    /** A statement played on both sides, or on one ({@code null}: the other could not run it). */
    void compared(CapturedEvent event, StatementPlayer.Played a, StatementPlayer.Played b, ResultDifference difference) {
        Row row = rows.computeIfAbsent(ReplaySession.key(event), k -> new Row(event));
        compared++;
        row.compared++;
        if (a != null) {
            row.a.recordValue(Math.max(1, a.micros()));
            count(errorsA, a.result());
        }
        if (b != null) {
            row.b.recordValue(Math.max(1, b.micros()));
            count(errorsB, b.result());
        }
        if (difference != null) {
            row.differing++;
            if (difference.orderOnly()) {
                row.orderOnly++;
            }
            if (row.first == null) {
                row.first = new DigestComparison.Example(event.session(), event.sql(), event.params(), difference.text());
            }
        }
    }

    void notReplayed(String reason) {
        notReplayed.merge(reason, 1L, Long::sum);
    }

    long comparedCount() {
        return compared;
    }

    Map<String, Long> notReplayed() {
        return notReplayed;
    }

    Map<String, Long> errorsA() {
        return errorsA;
    }

    Map<String, Long> errorsB() {
        return errorsB;
    }

    /** Every statement, longest total time on the first server first. */
    List<DigestComparison> digests() {
        List<DigestComparison> all = new ArrayList<>();
        rows.values().forEach(r -> all.add(new DigestComparison(r.command, r.digest, r.text, r.compared, r.differing,
                r.orderOnly, r.a, r.b, r.first)));
        all.sort(Comparator.comparingLong(DigestComparison::totalMicrosA).reversed()
                .thenComparing(d -> d.command() + "|" + d.digest()));
        return all;
    }

    private static void count(Map<String, Long> errors, StatementResult result) {
        if (result.errorKey != null) {
            errors.merge(result.errorKey, 1L, Long::sum);
        }
    }
}
