package dev.sluice.protocol.response;

import dev.sluice.protocol.ServerStatus;

/**
 * What one complete response was, as far as a proxy needs to know without decoding rows.
 *
 * @param kind          the response's overall outcome; for multi-results, ERR if any part failed
 *                      (an ERR ends the sequence), else RESULT_SET if any result set was seen
 * @param status        server status flags of the last OK/EOF seen, or -1 when the response
 *                      carried none (an ERR, a statistics string)
 * @param resultSets    result sets seen (a CALL may send several)
 * @param columns       columns of the last result set (or of a prepared statement)
 * @param rows          rows across all result sets
 * @param affectedRows  sum over the OK packets
 * @param lastInsertId  last non-zero insert id reported
 * @param statementId   the id a COM_STMT_PREPARE got, else -1
 * @param params        parameters of a prepared statement
 * @param localInfile   the server asked for a LOCAL INFILE on the way
 * @param sessionStateChanged an OK carried SERVER_SESSION_STATE_CHANGED
 * @param bytes         the response's size as the server sent it, packet headers included
 */
public record Response(
        Kind kind,
        int status,
        int errorCode,
        String sqlState,
        String errorMessage,
        int resultSets,
        int columns,
        long rows,
        long affectedRows,
        long lastInsertId,
        int warnings,
        long statementId,
        int params,
        boolean localInfile,
        boolean sessionStateChanged,
        long bytes) {

    public enum Kind {
        OK, ERR, RESULT_SET, PREPARE_OK, STATISTICS
    }

    /** The same outcome under another statement id (a proxy shows clients its own ids). */
    public Response withStatementId(long id) {
        return new Response(kind, status, errorCode, sqlState, errorMessage, resultSets, columns, rows, affectedRows,
                lastInsertId, warnings, id, params, localInfile, sessionStateChanged, bytes);
    }

    public boolean isError() {
        return kind == Kind.ERR;
    }

    public boolean statusKnown() {
        return status >= 0;
    }

    public boolean inTransaction() {
        return statusKnown() && ServerStatus.has(status, ServerStatus.IN_TRANS);
    }

    public boolean autocommit() {
        return statusKnown() && ServerStatus.has(status, ServerStatus.AUTOCOMMIT);
    }

    public boolean cursorExists() {
        return statusKnown() && ServerStatus.has(status, ServerStatus.CURSOR_EXISTS);
    }

    public boolean lastRowSent() {
        return statusKnown() && ServerStatus.has(status, ServerStatus.LAST_ROW_SENT);
    }
}
