package dev.sluice.testkit;

/** A MariaDB server of the testkit could not be installed, started, stopped or queried. */
public final class MariaDbException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public MariaDbException(String message) {
        super(message);
    }

    public MariaDbException(String message, Throwable cause) {
        super(message, cause);
    }
}
