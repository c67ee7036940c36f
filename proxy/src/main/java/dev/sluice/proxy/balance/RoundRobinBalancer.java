package dev.sluice.proxy.balance;

import dev.sluice.proxy.backend.Backend;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Each candidate in turn, weights ignored. */
final class RoundRobinBalancer implements Balancer {

    private final AtomicLong next = new AtomicLong();

    @Override
    public Backend pick(List<Backend> candidates) {
        return candidates.get((int) Math.floorMod(next.getAndIncrement(), (long) candidates.size()));
    }
}
