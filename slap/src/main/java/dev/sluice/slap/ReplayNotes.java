package dev.sluice.slap;

import java.util.Map;
import java.util.TreeMap;

/**
 * What a replay did not reproduce of how sessions were opened (the account, the character set,
 * variables set before the capture began), by reason, counted in sessions: the report lists them
 * beside the statements that were not replayed. Sessions open on several threads.
 */
final class ReplayNotes {

    private final Map<String, Long> sessions = new TreeMap<>();

    synchronized void add(String note) {
        sessions.merge(note, 1L, Long::sum);
    }

    synchronized Map<String, Long> snapshot() {
        return Map.copyOf(new TreeMap<>(sessions));
    }
}
