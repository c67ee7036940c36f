package dev.sluice.proxy.balance;

import dev.sluice.config.RoutingConfig;
import dev.sluice.proxy.backend.Backend;
import java.util.List;

/**
 * Chooses one backend among candidates that are all available and have a weight above 0.
 * Implementations are shared by all event loops.
 */
public interface Balancer {

    Backend pick(List<Backend> candidates);

    static Balancer of(RoutingConfig.Balancer kind) {
        return switch (kind) {
            case ROUND_ROBIN -> new RoundRobinBalancer();
            case WEIGHTED -> new SmoothWeightedBalancer();
            case LEAST_CONNECTIONS -> new LeastConnectionsBalancer();
            case LEAST_LATENCY -> new LeastLatencyBalancer();
            case RANDOM -> new WeightedRandomBalancer();
        };
    }
}
