package dev.sluice.proxy.differential;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** How DifferentialIT tells what it saw: a failing session's report, and transcripts as files. */
final class Reports {

    private Reports() {
    }

    /** With {@code -Dsluice.diff.dump=DIR}, every transcript as text, one file per session and target. */
    static void dump(long roundSeed, Map<Integer, Transcript> transcripts) throws IOException {
        String dir = System.getProperty(DiffSettings.PREFIX + "dump", "");
        if (dir.isBlank()) {
            return;
        }
        Files.createDirectories(Path.of(dir));
        for (Map.Entry<Integer, Transcript> e : transcripts.entrySet()) {
            Transcript t = e.getValue();
            StringBuilder text = new StringBuilder();
            for (Transcript.Entry entry : t.entries()) {
                text.append("step ").append(entry.step()).append(" (").append(entry.millis()).append(" ms)\n");
                entry.observed().forEach(o -> text.append("  ").append(o).append('\n'));
            }
            text.append("end: ").append(t.abort() == null ? "all steps ran" : t.abort()).append('\n');
            Files.writeString(Path.of(dir, roundSeed + "-" + e.getKey() + "-"
                    + t.target().configName() + ".txt"), text);
        }
    }

    /** The observations of the step that differ, side by side, at most a few. */
    private static String differingObservations(Transcript.Difference d, String name) {
        StringBuilder text = new StringBuilder();
        int shown = 0;
        for (int i = 0; i < Math.max(d.expected().size(), d.actual().size()) && shown < 3; i++) {
            String expected = i < d.expected().size() ? d.expected().get(i) : "(nothing)";
            String actual = i < d.actual().size() ? d.actual().get(i) : "(nothing)";
            if (!expected.equals(actual)) {
                text.append("    observation ").append(i).append(":\n      direct: ").append(cut(expected))
                        .append("\n      ").append(name).append(": ").append(cut(actual)).append('\n');
                shown++;
            }
        }
        return text.toString();
    }

    private static String cut(String text) {
        return text.length() <= 1500 ? text : text.substring(0, 1500) + "...";
    }

    static String difference(DiffSettings settings, long roundSeed, Plan plan, Target.Kind kind, Transcript.Difference d,
                             Transcript expected, Transcript seen) {
        String step = d.step() < plan.steps().size() ? plan.steps().get(d.step()).toString() : "-";
        return "session " + plan.session() + " on " + kind.configName() + ", step " + d.step() + " of "
                + plan.steps().size() + ": " + (step.length() > 160 ? step.substring(0, 160) + "..." : step)
                + " (seed " + roundSeed + "): " + d.why() + "\n"
                + "  replay: " + settings.replay(roundSeed, plan.session(), kind, d.step()) + "\n"
                + "  step " + d.step() + ": " + step + "\n"
                + "    took " + expected.millis(d.step()) + " ms direct, " + seen.millis(d.step()) + " ms on "
                + kind.configName() + "\n" + differingObservations(d, kind.configName())
                + "  the session's steps:\n" + plan.listing(d.step() + 1);
    }
}
