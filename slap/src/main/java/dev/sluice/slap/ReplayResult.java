package dev.sluice.slap;

import java.util.Map;

/**
 * What a replay did.
 *
 * @param capturedByCommand statements in the capture per command ({@code Query}, {@code Execute}, ...)
 * @param replayedByCommand statements sent per command (those that failed included)
 * @param notReplayed       statements not sent, by reason
 * @param errors            errors of the replayed statements by code
 * @param capturedErrors    errors the captured statements had, by code
 * @param sessionNotes      how sessions were opened otherwise than captured, by reason, in sessions
 */
public record ReplayResult(int sessions, long statements, Map<String, Long> capturedByCommand,
                           Map<String, Long> replayedByCommand, Map<String, Long> notReplayed, Map<String, Long> errors,
                           Map<String, Long> capturedErrors, Map<String, Long> sessionNotes, double seconds) {

    public ReplayResult {
        capturedByCommand = Map.copyOf(capturedByCommand);
        replayedByCommand = Map.copyOf(replayedByCommand);
        notReplayed = Map.copyOf(notReplayed);
        errors = Map.copyOf(errors);
        capturedErrors = Map.copyOf(capturedErrors);
        sessionNotes = Map.copyOf(sessionNotes);
    }

    public long replayed() {
        return replayedByCommand.values().stream().mapToLong(Long::longValue).sum();
    }
}
