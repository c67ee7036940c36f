package dev.sluice.config;

import java.util.Objects;

/**
 * How sessions and statements find a backend.
 *
 * @param mode     session: one backend per client session; split: reads outside transactions go
 *                 to replicas, everything else to the primary
 * @param balancer how a backend is chosen among the candidates
 */
public record RoutingConfig(Mode mode, Balancer balancer) {

    public enum Mode {
        SESSION, SPLIT;

        /** As written in the config: {@code session}, {@code split}. */
        public String configName() {
            return Messages.configName(this);
        }
    }

    public enum Balancer {
        ROUND_ROBIN, WEIGHTED, LEAST_CONNECTIONS, LEAST_LATENCY, RANDOM;

        /** As written in the config, e.g. {@code least_latency}. */
        public String configName() {
            return Messages.configName(this);
        }
    }

    public RoutingConfig {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(balancer, "balancer");
    }

    public static RoutingConfig defaults() {
        return new RoutingConfig(Mode.SESSION, Balancer.ROUND_ROBIN);
    }
}
