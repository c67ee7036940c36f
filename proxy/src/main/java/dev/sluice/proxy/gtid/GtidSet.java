package dev.sluice.proxy.gtid;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A MySQL GTID set, {@code source_uuid[:tag]:interval[:interval...][,...]} as in
 * {@code @@gtid_executed}, the session tracker's OWN_GTID report and what
 * {@code WAIT_FOR_EXECUTED_GTID_SET} takes. Unlike a MariaDB position, a set is not "everything up
 * to": a replica applying in parallel may have transaction 7 and not 6, so a read waits for each
 * transaction it must see. Immutable; per source (a server uuid, or uuid and tag since MySQL 8.3)
 * the transaction numbers are kept as sorted, disjoint, non-adjacent closed intervals.
 *
 * <p>A union keeps at most {@link #MAX_INTERVALS} intervals per source, so a long session's own
 * writes, interleaved with other sessions', cannot grow its wait statement without end: beyond
 * that the oldest gap is filled. That waits for more, never for less, and only for numbers the
 * source has already given out: a source numbers the transactions it commits in order without
 * gaps (MySQL manual, "GTID Format and Storage"), and a gap lies below a number it acknowledged.
 */
public final class GtidSet implements GtidMark {

    public static final GtidSet EMPTY = new GtidSet(new TreeMap<>());
    static final int MAX_INTERVALS = 64;

    /** By source, lower case; each value {start0, end0, start1, end1, ...}. */
    private final TreeMap<String, long[]> intervals;

    private GtidSet(TreeMap<String, long[]> intervals) {
        this.intervals = intervals;
    }

    /**
     * Parses MySQL's text form; blanks and newlines between elements (as {@code @@gtid_executed}
     * prints them) are allowed, "" and null are the empty set.
     *
     * @throws IllegalArgumentException naming the element that is not one and what was expected
     */
    public static GtidSet parse(String text) {
        if (text == null || text.isBlank()) {
            return EMPTY;
        }
        TreeMap<String, long[]> parsed = new TreeMap<>();
        for (String element : text.split(",")) {
            parseElement(element.strip(), parsed);
        }
        return new GtidSet(parsed);
    }

    private static void parseElement(String element, TreeMap<String, long[]> into) {
        String[] parts = element.split(":");
        String uuid = parts[0].strip().toLowerCase(Locale.ROOT);
        if (!uuid.matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")) {
            throw new IllegalArgumentException("GTID set: \"" + element + "\" (expected: a server uuid such as"
                    + " 3e11fa47-71ca-11e1-9e33-c80aa9429562, then :interval)");
        }
        if (parts.length < 2) {
            throw new IllegalArgumentException("GTID set: \"" + element + "\" (expected: uuid:interval, e.g. uuid:1-5)");
        }
        String source = uuid;
        boolean intervalsFollow = false;
        for (int i = 1; i < parts.length; i++) {
            String part = parts[i].strip();
            if (!part.isEmpty() && Character.isDigit(part.charAt(0))) {
                long[] interval = interval(part, element);
                into.merge(source, interval, GtidSet::unionOf);
                intervalsFollow = true;
            } else if (part.matches("[A-Za-z_][A-Za-z0-9_]{0,31}")) {
                intervalsFollow = false;
                // MySQL 8.3+ tagged GTIDs: the intervals that follow belong to uuid:tag.
                source = uuid + ":" + part.toLowerCase(Locale.ROOT);
            } else {
                throw new IllegalArgumentException("GTID set: \"" + part + "\" in \"" + element
                        + "\" (expected: an interval such as 1-5, or a tag)");
            }
        }
        if (!intervalsFollow) {
            throw new IllegalArgumentException("GTID set: \"" + element + "\" (expected: an interval after the tag)");
        }
    }

    private static long[] interval(String text, String element) {
        int dash = text.indexOf('-');
        try {
            long start = Long.parseLong(dash < 0 ? text : text.substring(0, dash).strip());
            long end = dash < 0 ? start : Long.parseLong(text.substring(dash + 1).strip());
            if (start < 1 || end < start) {
                throw new IllegalArgumentException("GTID set: interval \"" + text + "\" in \"" + element
                        + "\" (expected: 1 <= start <= end)");
            }
            return new long[] {start, end};
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("GTID set: interval \"" + text + "\" in \"" + element
                    + "\" (expected: start-end or one number)", e);
        }
    }

    @Override
    public boolean isEmpty() {
        return intervals.isEmpty();
    }

    /** Every transaction of both; this same object when {@code other} adds none. */
    public GtidSet union(GtidSet other) {
        if (contains(other)) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        TreeMap<String, long[]> merged = new TreeMap<>(intervals);
        for (Map.Entry<String, long[]> entry : other.intervals.entrySet()) {
            merged.merge(entry.getKey(), entry.getValue(), GtidSet::unionOf);
        }
        return new GtidSet(merged);
    }

    /** Whether every transaction of {@code other} is in this set. */
    public boolean contains(GtidSet other) {
        for (Map.Entry<String, long[]> entry : other.intervals.entrySet()) {
            long[] mine = intervals.get(entry.getKey());
            long[] theirs = entry.getValue();
            if (mine == null) {
                return false;
            }
            for (int i = 0; i < theirs.length; i += 2) {
                if (!covered(mine, theirs[i], theirs[i + 1])) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The sources, as they key the set: {@code uuid} or {@code uuid:tag}. */
    public List<String> sources() {
        return List.copyOf(intervals.keySet());
    }

    /** Waits until the replica has executed every transaction of the set; 0 when it has, 1 on timeout. */
    @Override
    public String waitStatement(double timeoutSeconds) {
        return "SELECT WAIT_FOR_EXECUTED_GTID_SET('" + this + "', " + timeoutSeconds + ")";
    }

    private static boolean covered(long[] sorted, long start, long end) {
        for (int i = 0; i < sorted.length; i += 2) {
            if (sorted[i] <= start) {
                if (end <= sorted[i + 1]) {
                    return true;
                }
            } else {
                return false;
            }
        }
        return false;
    }

    /** Both interval lists as one sorted, merged list, at most {@link #MAX_INTERVALS} long. */
    private static long[] unionOf(long[] a, long[] b) {
        List<long[]> all = new ArrayList<>((a.length + b.length) / 2);
        for (int i = 0; i < a.length; i += 2) {
            all.add(new long[] {a[i], a[i + 1]});
        }
        for (int i = 0; i < b.length; i += 2) {
            all.add(new long[] {b[i], b[i + 1]});
        }
        all.sort((x, y) -> Long.compare(x[0], y[0]));
        List<long[]> merged = new ArrayList<>(all.size());
        for (long[] next : all) {
            long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            // Adjacent intervals (1-5 and 6-9) are one, as MySQL writes them.
            if (last != null && next[0] <= last[1] + 1) {
                last[1] = Math.max(last[1], next[1]);
            } else {
                merged.add(next);
            }
        }
        while (merged.size() > MAX_INTERVALS) {
            merged.get(1)[0] = merged.get(0)[0];
            merged.remove(0);
        }
        long[] flat = new long[merged.size() * 2];
        for (int i = 0; i < merged.size(); i++) {
            flat[2 * i] = merged.get(i)[0];
            flat[2 * i + 1] = merged.get(i)[1];
        }
        return flat;
    }

    /** As MySQL writes a set: {@code 3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5:7}, sources by name. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, long[]> entry : intervals.entrySet()) {
            if (!text.isEmpty()) {
                text.append(',');
            }
            text.append(entry.getKey());
            long[] list = entry.getValue();
            for (int i = 0; i < list.length; i += 2) {
                text.append(':').append(list[i]);
                if (list[i + 1] != list[i]) {
                    text.append('-').append(list[i + 1]);
                }
            }
        }
        return text.toString();
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof GtidSet set) || !intervals.keySet().equals(set.intervals.keySet())) {
            return false;
        }
        for (Map.Entry<String, long[]> entry : intervals.entrySet()) {
            if (!Arrays.equals(entry.getValue(), set.intervals.get(entry.getKey()))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int hash = 0;
        for (Map.Entry<String, long[]> entry : intervals.entrySet()) {
            hash += entry.getKey().hashCode() ^ Arrays.hashCode(entry.getValue());
        }
        return hash;
    }
}
