package dev.sluice.proxy.balance;

import dev.sluice.proxy.backend.Backend;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * The candidate with the fewest active sessions per unit of weight; ties broken at random so a
 * burst of new sessions does not all land on the first of several idle backends.
 */
final class LeastConnectionsBalancer implements Balancer {

    private final Supplier<RandomGenerator> random;

    LeastConnectionsBalancer() {
        this(ThreadLocalRandom::current);
    }

    /** {@code random}: where ties are broken (a test's seeded generator). */
    LeastConnectionsBalancer(Supplier<RandomGenerator> random) {
        this.random = random;
    }

    @Override
    public Backend pick(List<Backend> candidates) {
        Backend best = null;
        double bestLoad = Double.MAX_VALUE;
        int ties = 0;
        for (Backend candidate : candidates) {
            double load = (double) candidate.activeSessions().get() / candidate.weight();
            if (load < bestLoad) {
                best = candidate;
                bestLoad = load;
                ties = 1;
            } else if (load == bestLoad && random.get().nextInt(++ties) == 0) {
                best = candidate;
            }
        }
        return best;
    }
}
