package dev.sluice.proxy.balance;

import dev.sluice.proxy.backend.Backend;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** A random candidate, each with a chance proportional to its weight. */
final class WeightedRandomBalancer implements Balancer {

    @Override
    public Backend pick(List<Backend> candidates) {
        long total = 0;
        for (Backend candidate : candidates) {
            total += candidate.weight();
        }
        long ticket = ThreadLocalRandom.current().nextLong(total);
        for (Backend candidate : candidates) {
            ticket -= candidate.weight();
            if (ticket < 0) {
                return candidate;
            }
        }
        return candidates.get(candidates.size() - 1);
    }
}
