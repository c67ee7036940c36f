package dev.sluice.proxy.balance;

import dev.sluice.proxy.backend.Backend;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Power of two choices on recent latency: two random candidates, the one whose average response
 * time (times its active sessions plus one, so a fast but busy backend is not flooded) is lower.
 * A backend without a measurement yet counts as fastest, so it gets measured.
 */
final class LeastLatencyBalancer implements Balancer {

    @Override
    public Backend pick(List<Backend> candidates) {
        int size = candidates.size();
        if (size == 1) {
            return candidates.get(0);
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
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
