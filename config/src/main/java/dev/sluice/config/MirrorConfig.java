package dev.sluice.config;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Mirroring: a copy of the statements clients run goes to a shadow server, off the clients' path,
 * and the shadow's answers are compared with the ones the clients got.
 *
 * @param enabled     on when the section names an address, unless {@code enabled: false}
 * @param address     the shadow server; required when enabled
 * @param user        the account the shadow is logged into as; empty: the first of {@code users}
 * @param password    its password (present exactly when {@code user} is)
 * @param statements  which statements are copied: reads, or everything (writes too: the shadow must be a throw-away copy)
 * @param queueSize   copies waiting for the shadow; when full, new ones are dropped and counted
 * @param queueBytes  the bytes those copies may hold together (also taken from limits.buffered_memory)
 * @param connections connections to the shadow, each running one copy at a time
 * @param timeout     how long the shadow may take to answer one copy before it counts as failed
 * @param sample      the share of the statements that qualify that are copied, above 0 up to 1
 */
public record MirrorConfig(boolean enabled, Optional<HostPort> address, Optional<String> user, Optional<String> password,
                           Statements statements, int queueSize, int queueBytes, int connections, Duration timeout,
                           double sample) {

    public static final int DEFAULT_QUEUE_SIZE = 10_000;
    public static final int MAX_QUEUE_SIZE = 1 << 20;
    public static final int DEFAULT_QUEUE_BYTES = 16 << 20;
    public static final int MIN_QUEUE_BYTES = 1024;
    public static final int MAX_QUEUE_BYTES = 1 << 30;
    public static final int DEFAULT_CONNECTIONS = 2;
    public static final int MAX_CONNECTIONS = 64;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration MAX_TIMEOUT = Duration.ofHours(1);
    /** One statement in a million: below that a digest would hardly ever be compared. */
    public static final double MIN_SAMPLE = 0.000001;

    /** Which statements are copied to the shadow. */
    public enum Statements {
        /** What split mode would send to a replica: provably read-only statements. */
        READS,
        /** Every statement whose effect does not stay on the connection (writes and DDL too). */
        ALL;

        public String configName() {
            return Messages.configName(this);
        }
    }

    public MirrorConfig {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(statements, "statements");
        Objects.requireNonNull(timeout, "timeout");
        if (enabled && address.isEmpty()) {
            throw new IllegalArgumentException("address: missing (expected: the shadow's host:port when mirror is enabled)");
        }
        if (user.isPresent() != password.isPresent()) {
            throw new IllegalArgumentException(user.isPresent() ? "user is set without password (expected: both or neither)"
                    : "password is set without user (expected: both or neither)");
        }
        if (queueSize < 1 || queueSize > MAX_QUEUE_SIZE) {
            throw new IllegalArgumentException("queue_size: " + queueSize + " is out of range (expected: an integer from 1 to "
                    + MAX_QUEUE_SIZE + ")");
        }
        if (queueBytes < MIN_QUEUE_BYTES || queueBytes > MAX_QUEUE_BYTES) {
            throw new IllegalArgumentException("queue_bytes: " + queueBytes + " is out of range (expected: "
                    + ByteSizes.format(MIN_QUEUE_BYTES) + " to " + ByteSizes.format(MAX_QUEUE_BYTES) + " bytes)");
        }
        if (connections < 1 || connections > MAX_CONNECTIONS) {
            throw new IllegalArgumentException("connections: " + connections
                    + " is out of range (expected: an integer from 1 to " + MAX_CONNECTIONS + ")");
        }
        if (!(sample >= MIN_SAMPLE && sample <= 1)) {
            throw new IllegalArgumentException("sample: " + sample + " is out of range (expected: a fraction from "
                    + MIN_SAMPLE + " to 1)");
        }
        if (timeout.compareTo(Duration.ofMillis(1)) < 0 || timeout.compareTo(MAX_TIMEOUT) > 0) {
            throw new IllegalArgumentException("timeout: " + Durations.format(timeout) + " is out of range (expected: 1ms to "
                    + Durations.format(MAX_TIMEOUT) + ")");
        }
    }

    /** Mirroring off. */
    public static MirrorConfig off() {
        return new MirrorConfig(false, Optional.empty(), Optional.empty(), Optional.empty(), Statements.READS,
                DEFAULT_QUEUE_SIZE, DEFAULT_QUEUE_BYTES, DEFAULT_CONNECTIONS, DEFAULT_TIMEOUT, 1);
    }

    /** Reads to {@code shadow}, every other setting at its default. */
    public static MirrorConfig to(HostPort shadow) {
        return new MirrorConfig(true, Optional.of(shadow), Optional.empty(), Optional.empty(), Statements.READS,
                DEFAULT_QUEUE_SIZE, DEFAULT_QUEUE_BYTES, DEFAULT_CONNECTIONS, DEFAULT_TIMEOUT, 1);
    }

    public MirrorConfig withStatements(Statements which) {
        return new MirrorConfig(enabled, address, user, password, which, queueSize, queueBytes, connections, timeout, sample);
    }

    public MirrorConfig withAccount(String name, String secret) {
        return new MirrorConfig(enabled, address, Optional.of(name), Optional.of(secret), statements, queueSize, queueBytes,
                connections, timeout, sample);
    }

    public MirrorConfig withQueue(int size, int bytes) {
        return new MirrorConfig(enabled, address, user, password, statements, size, bytes, connections, timeout, sample);
    }

    public MirrorConfig withConnections(int count, Duration newTimeout) {
        return new MirrorConfig(enabled, address, user, password, statements, queueSize, queueBytes, count, newTimeout,
                sample);
    }

    public MirrorConfig withSample(double share) {
        return new MirrorConfig(enabled, address, user, password, statements, queueSize, queueBytes, connections, timeout,
                share);
    }
}
