package dev.sluice.config;

import java.time.Duration;
import java.util.Objects;

/**
 * How long the proxy waits for things. Every wait ends in a clear error, never in a hang.
 *
 * @param connect      to open a TCP connection to a backend
 * @param handshake    for a client to finish the handshake and authentication
 * @param clientIdle   a client may stay idle between commands (MySQL's wait_timeout)
 * @param backendQueue a session may wait for a backend connection; 0 means not at all
 * @param poolIdle     an unused backend connection stays open in the pool
 * @param shutdown     grace period for sessions to finish on a graceful shutdown; 0 closes at once
 * @param backendRetry the first backoff after a backend refuses connections; it doubles on each
 *                     failure up to {@link #BACKEND_RETRY_CAP}
 * @param query        a statement still running after this long is killed on its backend (KILL
 *                     QUERY; the client gets ER_QUERY_INTERRUPTED); 0, the default, never
 * @param primaryWait  split mode: a statement that finds no backend to run on (no primary up, or
 *                     none known) waits this long for one before it fails; 0 fails at once
 */
public record TimeoutsConfig(
        Duration connect,
        Duration handshake,
        Duration clientIdle,
        Duration backendQueue,
        Duration poolIdle,
        Duration shutdown,
        Duration backendRetry,
        Duration query,
        Duration primaryWait) {

    public static final Duration BACKEND_RETRY_CAP = Duration.ofSeconds(30);
    /** MySQL's largest wait_timeout; longer timeouts are surely typos. */
    public static final Duration MAX = Duration.ofDays(365);
    /** Long enough for a restarted server, or a failover done by hand with a script, to be seen. */
    public static final Duration DEFAULT_PRIMARY_WAIT = Duration.ofSeconds(5);
    public static final Duration MAX_PRIMARY_WAIT = Duration.ofHours(1);

    public TimeoutsConfig {
        positive("connect", connect);
        positive("handshake", handshake);
        positive("client_idle", clientIdle);
        notNegative("backend_queue", backendQueue);
        positive("pool_idle", poolIdle);
        notNegative("shutdown", shutdown);
        positive("backend_retry", backendRetry);
        notNegative("query", query);
        Objects.requireNonNull(primaryWait, "primary_wait");
        if (primaryWait.isNegative() || primaryWait.compareTo(MAX_PRIMARY_WAIT) > 0) {
            throw new IllegalArgumentException("primary_wait: " + Durations.format(primaryWait)
                    + " is out of range (expected: 0s to " + Durations.format(MAX_PRIMARY_WAIT) + ")");
        }
        if (backendRetry.compareTo(BACKEND_RETRY_CAP) > 0) {
            throw new IllegalArgumentException("backend_retry: " + Durations.format(backendRetry)
                    + " is out of range (expected: more than 0s, at most " + Durations.format(BACKEND_RETRY_CAP) + ")");
        }
    }

    /** Without a query timeout, the default primary wait. */
    public TimeoutsConfig(Duration connect, Duration handshake, Duration clientIdle, Duration backendQueue,
                          Duration poolIdle, Duration shutdown, Duration backendRetry) {
        this(connect, handshake, clientIdle, backendQueue, poolIdle, shutdown, backendRetry, Duration.ZERO);
    }

    /** The default primary wait. */
    public TimeoutsConfig(Duration connect, Duration handshake, Duration clientIdle, Duration backendQueue,
                          Duration poolIdle, Duration shutdown, Duration backendRetry, Duration query) {
        this(connect, handshake, clientIdle, backendQueue, poolIdle, shutdown, backendRetry, query,
                DEFAULT_PRIMARY_WAIT);
    }

    public TimeoutsConfig withPrimaryWait(Duration newPrimaryWait) {
        return new TimeoutsConfig(connect, handshake, clientIdle, backendQueue, poolIdle, shutdown, backendRetry, query,
                newPrimaryWait);
    }

    public static TimeoutsConfig defaults() {
        return new TimeoutsConfig(
                Duration.ofSeconds(5),
                Duration.ofSeconds(10),
                Duration.ofHours(8),
                Duration.ofSeconds(5),
                Duration.ofSeconds(60),
                Duration.ofSeconds(30),
                Duration.ofSeconds(1),
                Duration.ZERO,
                DEFAULT_PRIMARY_WAIT);
    }

    private static void positive(String key, Duration value) {
        Objects.requireNonNull(value, key);
        if (value.isNegative() || value.isZero() || value.compareTo(MAX) > 0) {
            throw new IllegalArgumentException(key + ": " + Durations.format(value)
                    + " is out of range (expected: more than 0s, at most " + Durations.format(MAX) + ")");
        }
    }

    private static void notNegative(String key, Duration value) {
        Objects.requireNonNull(value, key);
        if (value.isNegative() || value.compareTo(MAX) > 0) {
            throw new IllegalArgumentException(key + ": " + Durations.format(value)
                    + " is out of range (expected: 0s to " + Durations.format(MAX) + ")");
        }
    }
}
