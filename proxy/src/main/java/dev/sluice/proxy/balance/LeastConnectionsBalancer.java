package dev.sluice.proxy.balance;

import dev.sluice.proxy.backend.Backend;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The candidate with the fewest active sessions per unit of weight; ties broken at random so a
 * burst of new sessions does not all land on the first of several idle backends.
 */
final class LeastConnectionsBalancer implements Balancer {

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
            } else if (load == bestLoad && ThreadLocalRandom.current().nextInt(++ties) == 0) {
                best = candidate;
            }
        }
        return best;
    }
}
