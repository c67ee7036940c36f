package dev.sluice.proxy.backend;

/**
 * A backend could not be reached or refused the login. Carries the MySQL error to give the client:
 * the backend's own ERR when it sent one, else {@link #BACKEND_UNAVAILABLE}.
 */
public final class BackendLoginException extends Exception {

    private static final long serialVersionUID = 1L;

    /**
     * The backend cannot be reached or went away during its login. ProxySQL's code for the same failure: the
     * client libraries' own codes (2003, 2013) cannot be used, as libmariadb reports a server ERR carrying a code
     * of its own ranges (2000-2999, 5000-5999) as "Received malformed packet" (2027) and drops the message.
     */
    public static final int BACKEND_UNAVAILABLE = 9001;

    private final int errorCode;
    private final String sqlState;
    private final boolean refusedByServer;

    public BackendLoginException(int errorCode, String sqlState, String message, boolean refusedByServer) {
        super(message, null, false, false);
        this.errorCode = errorCode;
        this.sqlState = sqlState;
        this.refusedByServer = refusedByServer;
    }

    public int errorCode() {
        return errorCode;
    }

    public String sqlState() {
        return sqlState;
    }

    /** True when the backend answered with an ERR (it is up); false when it could not be reached. */
    public boolean refusedByServer() {
        return refusedByServer;
    }
}
