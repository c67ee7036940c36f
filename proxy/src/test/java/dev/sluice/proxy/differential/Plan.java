package dev.sluice.proxy.differential;

import java.util.List;

/**
 * What one session does, the same on every target.
 *
 * @param session its number in the round; its schema is {@code diff_<session>}
 * @param options Connector/J URL options of its connection (socketTimeout aside)
 * @param steps   what it runs, in order
 */
record Plan(int session, String options, List<Step> steps) {

    String schema() {
        return "diff_" + session;
    }

    /** The steps, numbered, up to and including {@code last} (all when negative). */
    String listing(int last) {
        StringBuilder text = new StringBuilder("  options: ").append(options).append('\n');
        int end = last < 0 ? steps.size() - 1 : Math.min(last, steps.size() - 1);
        for (int i = 0; i <= end; i++) {
            text.append(String.format("  %3d %s%n", i, steps.get(i)));
        }
        if (end < steps.size() - 1) {
            text.append("  (").append(steps.size() - 1 - end).append(" more steps)\n");
        }
        return text.toString();
    }
}
