package dev.sluice.config;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Health checks: every backend is checked each {@code interval} (connect and log in once, then
 * COM_PING, {@code @@read_only}, and on replicas the replication lag), each check within
 * {@code timeout}. A backend failing {@code failAfter} checks in a row is shunned (no new work);
 * one passing {@code recoverAfter} in a row is back online.
 *
 * @param maxReplicationLag a replica further behind gets no reads; {@link Duration#ZERO}: no limit
 * @param user              the account checks log in as; empty: the first of {@code users}
 * @param password          its password (present exactly when {@code user} is)
 */
public record HealthConfig(boolean enabled, Duration interval, Duration timeout, int failAfter, int recoverAfter,
                           Duration maxReplicationLag, Optional<String> user, Optional<String> password) {

    public static final Duration MIN_INTERVAL = Duration.ofMillis(100);
    public static final Duration MAX_INTERVAL = Duration.ofHours(1);
    public static final int MAX_THRESHOLD = 1000;

    public HealthConfig {
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(maxReplicationLag, "maxReplicationLag");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        within("interval", interval, MIN_INTERVAL);
        within("timeout", timeout, Duration.ofMillis(10));
        if (failAfter < 1 || failAfter > MAX_THRESHOLD) {
            throw new IllegalArgumentException("fail_after: " + failAfter + " is out of range (expected: an integer from 1 to "
                    + MAX_THRESHOLD + ")");
        }
        if (recoverAfter < 1 || recoverAfter > MAX_THRESHOLD) {
            throw new IllegalArgumentException("recover_after: " + recoverAfter
                    + " is out of range (expected: an integer from 1 to " + MAX_THRESHOLD + ")");
        }
        if (maxReplicationLag.isNegative()) {
            throw new IllegalArgumentException("max_replication_lag: " + Durations.format(maxReplicationLag)
                    + " is out of range (expected: 0s or more)");
        }
        if (user.isPresent() != password.isPresent()) {
            throw new IllegalArgumentException(user.isPresent() ? "user is set without password (expected: both or neither)"
                    : "password is set without user (expected: both or neither)");
        }
    }

    /** What a config file gets without a {@code health} section. */
    public static HealthConfig defaults() {
        return new HealthConfig(true, Duration.ofSeconds(1), Duration.ofSeconds(1), 3, 2, Duration.ZERO,
                Optional.empty(), Optional.empty());
    }

    /** No checks (configs built in code start with this). */
    public static HealthConfig disabled() {
        HealthConfig d = defaults();
        return new HealthConfig(false, d.interval, d.timeout, d.failAfter, d.recoverAfter, d.maxReplicationLag,
                Optional.empty(), Optional.empty());
    }

    /** True when replicas have a lag limit. */
    public boolean limitsLag() {
        return !maxReplicationLag.isZero();
    }

    private static void within(String key, Duration value, Duration min) {
        if (value.compareTo(min) < 0 || value.compareTo(MAX_INTERVAL) > 0) {
            throw new IllegalArgumentException(key + ": " + Durations.format(value) + " is out of range (expected: "
                    + Durations.format(min) + " to " + Durations.format(MAX_INTERVAL) + ")");
        }
    }

    @Override
    public String toString() {
        return "HealthConfig[enabled=" + enabled + ", interval=" + interval + ", timeout=" + timeout + ", failAfter="
                + failAfter + ", recoverAfter=" + recoverAfter + ", maxReplicationLag=" + maxReplicationLag
                + ", user=" + user.orElse("(first of users)") + ", password=" + password.map(p -> "(hidden)").orElse("(none)")
                + "]";
    }
}
