package dev.sluice.proxy.balance;

import dev.sluice.proxy.backend.Backend;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/** A random candidate, each with a chance proportional to its weight. */
final class WeightedRandomBalancer implements Balancer {

    private final Supplier<RandomGenerator> random;

    WeightedRandomBalancer() {
        this(ThreadLocalRandom::current);
    }

    /** {@code random}: where the tickets are drawn from (a test's seeded generator). */
    WeightedRandomBalancer(Supplier<RandomGenerator> random) {
        this.random = random;
    }

    @Override
    public Backend pick(List<Backend> candidates) {
        long total = 0;
        for (Backend candidate : candidates) {
            total += candidate.weight();
        }
        long ticket = random.get().nextLong(total);
        for (Backend candidate : candidates) {
            ticket -= candidate.weight();
            if (ticket < 0) {
                return candidate;
            }
        }
        return candidates.get(candidates.size() - 1);
    }
}
