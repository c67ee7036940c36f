package dev.sluice.slap;

/**
 * A run that cannot start or had to stop, with the message to print (without the program name)
 * and the exit status mysqlslap uses for the same failure.
 */
public final class SlapException extends RuntimeException {

    private final int exitCode;

    public SlapException(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    public SlapException(String message, int exitCode, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
