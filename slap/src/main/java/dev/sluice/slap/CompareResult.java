package dev.sluice.slap;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What {@code slap --replay FILE --compare HOST:PORT} found.
 *
 * @param a            the first server's address (-h/-P)
 * @param b            the second's (--compare)
 * @param compared     statements played on both servers
 * @param digests      per command and digest, by total time on the first server, longest first
 * @param notReplayed  statements played on neither, by reason
 * @param sessionNotes how sessions were opened otherwise than captured, by reason, in sessions
 * @param errorsA      errors the first server answered, by code (those both answered the same included)
 */
public record CompareResult(Path file, String a, String b, int sessions, long statements, long compared,
                            double seconds, String speed, List<DigestComparison> digests,
                            Map<String, Long> notReplayed, Map<String, Long> sessionNotes,
                            Map<String, Long> errorsA, Map<String, Long> errorsB) {

    public CompareResult {
        digests = List.copyOf(digests);
        notReplayed = Map.copyOf(notReplayed);
        sessionNotes = Map.copyOf(sessionNotes);
        errorsA = Map.copyOf(errorsA);
        errorsB = Map.copyOf(errorsB);
    }

    /** The statements whose answers differed at least once. */
    public List<DigestComparison> differing() {
        return digests.stream().filter(d -> d.differing() > 0).toList();
    }

    public long notReplayedCount() {
        return notReplayed.values().stream().mapToLong(Long::longValue).sum();
    }

    /** 1 when any answer differed, as diff exits, so that a script can hold a change back on it; else 0. */
    public int exitStatus() {
        return differing().isEmpty() ? 0 : 1;
    }
}
