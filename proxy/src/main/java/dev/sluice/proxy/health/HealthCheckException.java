package dev.sluice.proxy.health;

/**
 * Why a health check failed, in words for the admin tables and the log.
 *
 * @see HealthConnection
 */
final class HealthCheckException extends Exception {

    private static final long serialVersionUID = 1L;

    private final boolean unreachable;

    HealthCheckException(String message, boolean unreachable) {
        super(message, null, false, false);
        this.unreachable = unreachable;
    }

    /** The backend could not be reached at all (as opposed to answering wrongly or too slowly). */
    boolean unreachable() {
        return unreachable;
    }
}
