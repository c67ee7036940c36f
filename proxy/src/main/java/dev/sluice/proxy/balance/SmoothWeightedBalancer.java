package dev.sluice.proxy.balance;

import dev.sluice.proxy.backend.Backend;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Smooth weighted round robin (as nginx does it): every pick adds each candidate's weight to its
 * running score, takes the highest, and subtracts the total from the winner. Weights 5:1:1 give
 * a, a, b, a, c, a, a rather than five a's in a row.
 */
final class SmoothWeightedBalancer implements Balancer {

    private final Map<Backend, Long> scores = new IdentityHashMap<>();

    @Override
    public synchronized Backend pick(List<Backend> candidates) {
        Backend best = null;
        long bestScore = Long.MIN_VALUE;
        long total = 0;
        for (Backend candidate : candidates) {
            long score = scores.getOrDefault(candidate, 0L) + candidate.weight();
            scores.put(candidate, score);
            total += candidate.weight();
            if (score > bestScore) {
                best = candidate;
                bestScore = score;
            }
        }
        scores.put(best, bestScore - total);
        if (scores.size() > candidates.size() * 2) {
            scores.keySet().retainAll(candidates);
        }
        return best;
    }
}
