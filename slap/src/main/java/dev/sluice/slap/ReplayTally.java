package dev.sluice.slap;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * What one replayed session did, merged into the run's at the end: latency per statement key
 * (command and digest), statements replayed per command, and what was not replayed and why.
 * One thread at a time.
 */
final class ReplayTally {

    final Map<String, Histogram> latencyMicros = new HashMap<>();
    final Map<String, Long> replayedByCommand = new TreeMap<>();
    final Map<String, Long> notReplayed = new TreeMap<>();

    void replayed(String key, String command, long micros) {
        latencyMicros.computeIfAbsent(key, k -> new Histogram(3)).recordValue(Math.max(1, micros));
        replayedByCommand.merge(command, 1L, Long::sum);
    }

    void notReplayed(String reason) {
        notReplayed.merge(reason, 1L, Long::sum);
    }

    synchronized void merge(ReplayTally other) {
        other.latencyMicros.forEach((key, h) -> latencyMicros.computeIfAbsent(key, k -> new Histogram(3)).add(h));
        other.replayedByCommand.forEach((k, v) -> replayedByCommand.merge(k, v, Long::sum));
        other.notReplayed.forEach((k, v) -> notReplayed.merge(k, v, Long::sum));
    }

    long replayed() {
        return replayedByCommand.values().stream().mapToLong(Long::longValue).sum();
    }
}
