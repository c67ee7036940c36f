package dev.sluice.proxy.backend;

/**
 * A backend could not be reached or refused the login. Carries the MySQL error to give the client:
 * the backend's own ERR when it sent one, else 2003/2013 in the MySQL client's words.
 */
public final class BackendLoginException extends Exception {

    private static final long serialVersionUID = 1L;

    /** CR_CONN_HOST_ERROR: the backend cannot be reached. */
    public static final int CANNOT_CONNECT = 2003;
    /** CR_SERVER_LOST: the backend went away during the login. */
    public static final int LOST_DURING_LOGIN = 2013;

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
