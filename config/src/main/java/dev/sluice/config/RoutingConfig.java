package dev.sluice.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How sessions and statements find a backend.
 *
 * @param mode               session: one backend per client session; split: reads outside
 *                           transactions go to replicas, everything else to the primary
 * @param balancer           how a backend is chosen among the candidates
 * @param readYourWritesScope whose writes a read must see under {@code read_your_writes}: the
 *                           session's own, its user's on any connection, or everyone's
 * @param discover           read_only: backends without a role are {@code role: auto};
 *                           replica_hosts: that, and the primary's replicas join as backends
 * @param preferredPrimary   the {@code role: auto} backend that takes the writes when more than
 *                           one is writable; empty: none does then
 * @param transactionReplay  split mode: a transaction whose backend connection is lost runs again on
 *                           a new one when every answer the client saw comes out the same
 * @param transactionReplayMaxSize the most bytes of statements one transaction records for that;
 *                           beyond it, that transaction is not replayed
 * @param reuseBackendConnections session mode with users: a session's backend connection, reset,
 *                           serves a later session instead of a new login; off: it closes with its session
 */
public record RoutingConfig(Mode mode, Balancer balancer, ReadYourWrites readYourWrites, Duration primaryWindow,
                            Duration gtidWaitTimeout, List<RoutingRule> rules, ReadYourWritesScope readYourWritesScope,
                            Discover discover, Optional<String> preferredPrimary, boolean transactionReplay,
                            long transactionReplayMaxSize, boolean reuseBackendConnections) {

    public static final Duration DEFAULT_PRIMARY_WINDOW = Duration.ofSeconds(1);
    public static final Duration DEFAULT_GTID_WAIT_TIMEOUT = Duration.ofSeconds(1);
    /** MaxScale's trx_max_size default. */
    public static final long DEFAULT_TRANSACTION_REPLAY_MAX_SIZE = 1 << 20;

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

    /**
     * Whose writes {@link ReadYourWrites} waits for: the session's own, every write acknowledged
     * to the session's user (on any of its connections, so a connection pool reads its own
     * writes), or every write acknowledged to anyone through this proxy.
     */
    public enum ReadYourWritesScope {
        SESSION, USER, GLOBAL;

        public String configName() {
            return Messages.configName(this);
        }
    }

    /**
     * Where backends' roles come from: the config, or each one's {@code @@read_only}; with
     * replica_hosts, also which backends there are: the primary's replicas (its
     * {@code SHOW SLAVE HOSTS}) join the configured ones.
     */
    public enum Discover {
        OFF, READ_ONLY, REPLICA_HOSTS;

        /** Roles come from {@code @@read_only}: backends without a role are {@code role: auto}. */
        public boolean readsRoles() {
            return this != OFF;
        }

        public String configName() {
            return Messages.configName(this);
        }
    }

    /** Session mode reusing backend connections. */
    public RoutingConfig(Mode mode, Balancer balancer, ReadYourWrites readYourWrites, Duration primaryWindow,
                         Duration gtidWaitTimeout, List<RoutingRule> rules, ReadYourWritesScope readYourWritesScope,
                         Discover discover, Optional<String> preferredPrimary, boolean transactionReplay,
                         long transactionReplayMaxSize) {
        this(mode, balancer, readYourWrites, primaryWindow, gtidWaitTimeout, rules, readYourWritesScope, discover,
                preferredPrimary, transactionReplay, transactionReplayMaxSize, true);
    }

    /** Without transaction replay. */
    public RoutingConfig(Mode mode, Balancer balancer, ReadYourWrites readYourWrites, Duration primaryWindow,
                         Duration gtidWaitTimeout, List<RoutingRule> rules, ReadYourWritesScope readYourWritesScope,
                         Discover discover, Optional<String> preferredPrimary) {
        this(mode, balancer, readYourWrites, primaryWindow, gtidWaitTimeout, rules, readYourWritesScope, discover,
                preferredPrimary, false, DEFAULT_TRANSACTION_REPLAY_MAX_SIZE);
    }

    /** Mode and balancer; the rest at defaults. */
    public RoutingConfig(Mode mode, Balancer balancer) {
        this(mode, balancer, ReadYourWrites.OFF, DEFAULT_PRIMARY_WINDOW, DEFAULT_GTID_WAIT_TIMEOUT, List.of());
    }

    /** Read-your-writes for the session's own writes, roles as configured. */
    public RoutingConfig(Mode mode, Balancer balancer, ReadYourWrites readYourWrites, Duration primaryWindow,
                         Duration gtidWaitTimeout, List<RoutingRule> rules) {
        this(mode, balancer, readYourWrites, primaryWindow, gtidWaitTimeout, rules, ReadYourWritesScope.SESSION,
                Discover.OFF, Optional.empty());
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
        Objects.requireNonNull(readYourWritesScope, "read_your_writes_scope");
        Objects.requireNonNull(discover, "discover");
        Objects.requireNonNull(preferredPrimary, "preferred_primary");
        if (transactionReplayMaxSize < 0) {
            throw new IllegalArgumentException("transaction_replay_max_size " + transactionReplayMaxSize
                    + " (expected: >= 0)");
        }
        rules = List.copyOf(rules);
    }

    public static RoutingConfig defaults() {
        return new RoutingConfig(Mode.SESSION, Balancer.ROUND_ROBIN);
    }

    public RoutingConfig withReadYourWrites(ReadYourWrites newMode, ReadYourWritesScope newScope) {
        return new RoutingConfig(mode, balancer, newMode, primaryWindow, gtidWaitTimeout, rules, newScope, discover,
                preferredPrimary, transactionReplay, transactionReplayMaxSize,
                reuseBackendConnections);
    }

    public RoutingConfig withDiscover(Discover newDiscover, Optional<String> newPreferredPrimary) {
        return new RoutingConfig(mode, balancer, readYourWrites, primaryWindow, gtidWaitTimeout, rules,
                readYourWritesScope, newDiscover, newPreferredPrimary, transactionReplay, transactionReplayMaxSize,
                reuseBackendConnections);
    }

    public RoutingConfig withTransactionReplay(boolean replay, long maxSize) {
        return new RoutingConfig(mode, balancer, readYourWrites, primaryWindow, gtidWaitTimeout, rules,
                readYourWritesScope, discover, preferredPrimary, replay, maxSize, reuseBackendConnections);
    }

    public RoutingConfig withReuseBackendConnections(boolean reuse) {
        return new RoutingConfig(mode, balancer, readYourWrites, primaryWindow, gtidWaitTimeout, rules,
                readYourWritesScope, discover, preferredPrimary, transactionReplay, transactionReplayMaxSize, reuse);
    }
}
