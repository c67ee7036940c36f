package dev.sluice.proxy.differential;

import java.util.List;
import java.util.Optional;

/**
 * What a session saw on one target, step by step; the probe's values are part of each step.
 *
 * @param target  where it ran
 * @param entries one per step that ran
 * @param abort   why the session stopped before its last step, or null
 */
record Transcript(Target.Kind target, List<Entry> entries, String abort) {

    /** One step: what was observed, and how long it took (not compared). */
    record Entry(int step, List<String> observed, long millis) {
    }

    /** Where {@code actual} first differs from this transcript, the reference. */
    record Difference(int step, List<String> expected, List<String> actual, String why) {
    }

    Optional<Difference> firstDifference(Transcript actual) {
        int common = Math.min(entries.size(), actual.entries.size());
        for (int i = 0; i < common; i++) {
            List<String> expected = entries.get(i).observed();
            List<String> seen = actual.entries.get(i).observed();
            if (!expected.equals(seen)) {
                return Optional.of(new Difference(i, expected, seen, "the step's results differ"
                        + (actual.abort != null && i == actual.entries.size() - 1 ? "; then: " + actual.abort : "")));
            }
        }
        if (actual.entries.size() < entries.size()) {
            return Optional.of(new Difference(common, entries.get(common).observed(), List.of(),
                    "stopped early: " + actual.abort));
        }
        if (actual.entries.size() > entries.size()) {
            return Optional.of(new Difference(common, List.of(), actual.entries.get(common).observed(),
                    "the reference stopped early: " + abort));
        }
        return Optional.empty();
    }

    long millis(int step) {
        return step < entries.size() ? entries.get(step).millis() : -1;
    }
}
