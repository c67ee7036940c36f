package dev.sluice.proxy.probe;

/**
 * Why a command on one of the proxy's own connections failed (a health check, a copy on the
 * mirror's shadow), in words for the admin tables and the log.
 *
 * @see OwnConnection
 */
public final class ProbeException extends Exception {

    private static final long serialVersionUID = 1L;

    private final boolean unreachable;

    ProbeException(String message, boolean unreachable) {
        super(message, null, false, false);
        this.unreachable = unreachable;
    }

    /** The backend could not be reached at all (as opposed to answering wrongly or too slowly). */
    public boolean unreachable() {
        return unreachable;
    }
}
