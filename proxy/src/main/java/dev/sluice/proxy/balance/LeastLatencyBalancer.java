package dev.sluice.proxy.balance;

import dev.sluice.proxy.backend.Backend;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Power of two choices on recent latency: two random candidates, the one whose average response
 * time (times its active sessions plus one, so a fast but busy backend is not flooded) is lower.
 * A backend without a measurement yet counts as fastest, so it gets measured.
 */
final class LeastLatencyBalancer implements Balancer {

    private final Supplier<RandomGenerator> random;

    LeastLatencyBalancer() {
        this(ThreadLocalRandom::current);
    }

    /** {@code random}: where the two candidates are drawn from (a test's seeded generator). */
    LeastLatencyBalancer(Supplier<RandomGenerator> random) {
        this.random = random;
    }

    @Override
    public Backend pick(List<Backend> candidates) {
        int size = candidates.size();
        if (size == 1) {
            return candidates.get(0);
        }
        RandomGenerator random = this.random.get();
        int first = random.nextInt(size);
        int second = random.nextInt(size - 1);
        if (second >= first) {
            second++;
        }
        Backend a = candidates.get(first);
        Backend b = candidates.get(second);
        return cost(a) <= cost(b) ? a : b;
    }

    private static double cost(Backend backend) {
        return backend.stats().latencyEwmaNanos() * (backend.activeSessions().get() + 1) / backend.weight();
    }
}
