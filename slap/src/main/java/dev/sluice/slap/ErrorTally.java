package dev.sluice.slap;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Errors counted per error code (or SQLSTATE when the server sent none), with one message each. */
final class ErrorTally {

    /** How often one code occurred, with the first message seen for it. */
    record Entry(long count, String message) { }

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    private final Map<String, String> messages = new ConcurrentHashMap<>();
    private final LongAdder total = new LongAdder();

    void add(String code, String message) {
        counts.computeIfAbsent(code, k -> new LongAdder()).increment();
        messages.putIfAbsent(code, message);
        total.increment();
    }

    long total() {
        return total.sum();
    }

    /** Codes in order, numeric codes by value. */
    Map<String, Entry> snapshot() {
        Map<String, Entry> out = new TreeMap<>(ErrorTally::compareCodes);
        counts.forEach((code, count) -> out.put(code, new Entry(count.sum(), messages.get(code))));
        return out;
    }

    static void merge(Map<String, Entry> into, Map<String, Entry> more) {
        more.forEach((code, entry) -> into.merge(code, entry,
                (a, b) -> new Entry(a.count() + b.count(), a.message())));
    }

    static int compareCodes(String a, String b) {
        boolean aNumber = a.chars().allMatch(Character::isDigit);
        boolean bNumber = b.chars().allMatch(Character::isDigit);
        if (aNumber && bNumber) {
            return Long.compare(Long.parseLong(a), Long.parseLong(b));
        }
        return aNumber ? -1 : bNumber ? 1 : a.compareTo(b);
    }
}
