package dev.sluice.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How sessions and statements find a backend.
 *
 * @param mode     session: one backend per client session; split: reads outside transactions go
 *                 to replicas, everything else to the primary
 * @param balancer how a backend is chosen among the candidates
 */
public record RoutingConfig(Mode mode, Balancer balancer, ReadYourWrites readYourWrites, Duration primaryWindow,
                            Duration gtidWaitTimeout, List<RoutingRule> rules) {

    public static final Duration DEFAULT_PRIMARY_WINDOW = Duration.ofSeconds(1);
    public static final Duration DEFAULT_GTID_WAIT_TIMEOUT = Duration.ofSeconds(1);

    /**
     * How a session reads what it just wrote in split mode: off (replicas may lag behind it), gtid
     * (a read on a replica first waits until that replica has the session's last write, then falls
     * back to the primary), primary_window (reads go to the primary for a while after a write).
     */
    public enum ReadYourWrites {
        OFF, GTID, PRIMARY_WINDOW;

        public String configName() {
            return Messages.configName(this);
        }
    }

    /** Mode and balancer; the rest at defaults. */
    public RoutingConfig(Mode mode, Balancer balancer) {
        this(mode, balancer, ReadYourWrites.OFF, DEFAULT_PRIMARY_WINDOW, DEFAULT_GTID_WAIT_TIMEOUT, List.of());
    }

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
        Objects.requireNonNull(readYourWrites, "read_your_writes");
        Objects.requireNonNull(primaryWindow, "primary_window");
        Objects.requireNonNull(gtidWaitTimeout, "gtid_wait_timeout");
        rules = List.copyOf(rules);
    }

    public static RoutingConfig defaults() {
        return new RoutingConfig(Mode.SESSION, Balancer.ROUND_ROBIN);
    }
}
