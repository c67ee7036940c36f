package dev.sluice.proxy.split;

import dev.sluice.protocol.response.Response;

/**
 * The error a statement left on a replica's connection, for a next statement that must run on the
 * primary and either reads it (GET DIAGNOSTICS ... INTO a user variable, which stays there) or
 * names no table (SET @v = 1), through which the server keeps it for SHOW WARNINGS after: the
 * primary raises the same error first (SIGNAL), so what is read there is what would have been
 * read on one connection. Warnings are not carried: SIGNAL raises only one condition.
 */
final class CarriedError {

    /** MariaDB's longest MESSAGE_TEXT of a SIGNAL, in characters. */
    private static final int MESSAGE_TEXT_MAX = 512;

    private int code;
    private String sqlState;
    private String message;
    private boolean carried;

    /**
     * What the statement that just ended left; an error that the server raised, or nothing. One
     * that names no table ({@code tableFree}) and raised nothing leaves the error before it, as
     * the server leaves its diagnostics area.
     */
    void afterResponse(Response response, boolean onReplica, boolean tableFree) {
        carried = false;
        if (onReplica && response.isError() && response.sqlState() != null && !response.sqlState().startsWith("00")) {
            code = response.errorCode();
            sqlState = response.sqlState();
            message = response.errorMessage();
        } else if (!tableFree || response.isError() || response.warnings() > 0) {
            message = null;
        }
    }

    /** The next statement leaves the connection that has the error: it goes along, if there is one. */
    void carryOver() {
        carried = message != null;
    }

    /** The SIGNAL to run just before the statement, once, or null when nothing is carried. */
    String takeSignal() {
        if (!carried) {
            return null;
        }
        carried = false;
        return signal(sqlState, code, message);
    }

    void reset() {
        carried = false;
        message = null;
    }

    /** A SIGNAL that raises the error {@code code} with {@code message}, as the server itself would. */
    static String signal(String sqlState, int code, String message) {
        String text = message.length() > MESSAGE_TEXT_MAX ? message.substring(0, MESSAGE_TEXT_MAX) : message;
        return "SIGNAL SQLSTATE '" + sqlState + "' SET MYSQL_ERRNO = " + code + ", MESSAGE_TEXT = '"
                + text.replace("\\", "\\\\").replace("'", "''") + "'";
    }
}
