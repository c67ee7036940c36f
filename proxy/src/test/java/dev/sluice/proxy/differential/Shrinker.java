package dev.sluice.proxy.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Shortens a failing plan: drops runs of steps before the failing one, then single steps, keeping
 * each cut after which the plan still differs at its last step, until nothing more can go or the
 * time is up. The setup step stays. What is left is the sequence a bug report needs.
 */
final class Shrinker {

    /** Runs a plan alone directly and on the target: where it first differs, if it does. */
    interface Check {
        Optional<Transcript.Difference> run(Plan plan) throws Exception;
    }

    private Shrinker() {
    }

    /** The shortest plan found that still differs at its last step; {@code plan} cut after {@code failing} at worst. */
    static Plan shrink(Plan plan, int failing, Check check, long deadlineNanos) throws Exception {
        List<Step> steps = new ArrayList<>(plan.steps().subList(0, failing + 1));
        Plan shortest = new Plan(plan.session(), plan.options(), List.copyOf(steps));
        if (!differsAtEnd(shortest, check)) {
            return shortest;
        }
        for (int chunk = Math.max(1, (steps.size() - 2) / 2); chunk >= 1; chunk /= 2) {
            for (int from = steps.size() - 1 - chunk; from >= 1; from -= chunk) {
                if (System.nanoTime() > deadlineNanos) {
                    return shortest;
                }
                List<Step> cut = new ArrayList<>(steps.subList(0, from));
                cut.addAll(steps.subList(from + chunk, steps.size()));
                Plan candidate = new Plan(plan.session(), plan.options(), List.copyOf(cut));
                if (differsAtEnd(candidate, check)) {
                    steps = cut;
                    shortest = candidate;
                }
            }
        }
        return shortest;
    }

    private static boolean differsAtEnd(Plan plan, Check check) throws Exception {
        Optional<Transcript.Difference> difference = check.run(plan);
        return difference.isPresent() && difference.get().step() == plan.steps().size() - 1;
    }
}
