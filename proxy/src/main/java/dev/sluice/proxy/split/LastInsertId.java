package dev.sluice.proxy.split;

import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.backend.SessionVariables;
import dev.sluice.proxy.backend.TrackedConnection;
import dev.sluice.proxy.sql.InsertLiterals;

/**
 * LAST_INSERT_ID() belongs to the session, but a split session's statements run on many
 * connections, each holding the value its own last insert left (often another session's). Each
 * connection's value is known while the proxy saw every statement that could change it
 * ({@link SessionVariables#lastInsertId()}); the session's is set on a connection before a
 * statement that reads it, unless the connection has it already.
 *
 * <p>The OK of an insert cannot tell a generated id from one the statement gave (an explicit
 * value, or the row an ON DUPLICATE KEY UPDATE updated): only the first changes LAST_INSERT_ID().
 * An insert of literal rows none of whose literals could have given the reported id generated it
 * ({@link InsertLiterals}). After any other OK with an id the connection is asked, once, before it
 * goes back to its pool or a statement reads the value ({@link #unresolvedOn}): the session keeps
 * its connection for one statement after any insert id anyway (what ROW_COUNT() and SHOW WARNINGS
 * ask), so the question never costs the client a round trip of its own and never hides what the
 * insert left there; so is it after an insert that failed (a multi-row one may have stored rows
 * first). A statement the proxy cannot see into can still give an id the text does
 * not hold (a BEFORE INSERT trigger setting it): LAST_INSERT_ID() is then not the new row's on
 * the server either, and the session is given the reported id.
 */
final class LastInsertId {

    private static final long NONE = -1;
    /** The reported ids remembered while unresolved: the connection's value is the last generated. */
    private static final int REPORTED_KEPT = 16;

    private long value;
    /** The hold count while only the held connection knows the session's value; NONE when resolved. */
    private long unresolvedAt = NONE;
    /** The connection had the session's value before (or LAST_INSERT_ID(expr) ran): it is exact now. */
    private boolean exact;
    /** The connection's value before the session's statements there, or UNKNOWN_ID. */
    private long prior;
    /** Made at the first id reported: most sessions never insert into an AUTO_INCREMENT table. */
    private long[] reported;
    private int reportedCount;

    /** The session starts over (COM_RESET_CONNECTION, COM_CHANGE_USER): the server's value is 0 again. */
    void reset() {
        value = 0;
        unresolvedAt = NONE;
        reportedCount = 0;
    }

    /** Whether the connection held now must be asked for the session's value before it goes or is read. */
    boolean unresolvedOn(long holdCount) {
        dropStale(holdCount);
        return unresolvedAt != NONE;
    }

    /** Whether a statement that reads the value must wait for the question first. */
    boolean mustAskBefore(RoutedStatement route, long holdCount) {
        return route.readsLastInsertId() && unresolvedOn(holdCount) && !exact;
    }

    void afterResponse(RoutedStatement route, Response response, TrackedConnection connection, long holdCount) {
        dropStale(holdCount);
        if (connection == null) {
            return;
        }
        SessionVariables state = connection.state();
        boolean setsExpr = !response.isError() && route.pins().contains(PinReason.LAST_INSERT_ID);
        // A multi-row insert that fails after storing its first row answers ERR, with no id, and
        // still leaves that row's id as LAST_INSERT_ID().
        boolean failedWrite = response.isError() && route.changesRows();
        boolean mayChange = setsExpr || failedWrite || response.lastInsertId() > 0 || route.callsProcedure()
                || route.multiStatement();
        if (!mayChange) {
            return;
        }
        long id = response.lastInsertId();
        if (id > 0 && !setsExpr && !route.callsProcedure() && !route.multiStatement()
                && route.insertLiterals() != null && !route.insertLiterals().couldStore(id)) {
            // No literal of the statement could have given this id: generated, so it is
            // LAST_INSERT_ID() now, on the connection and for the session, whatever came before.
            value = id;
            unresolvedAt = NONE;
            reportedCount = 0;
            state.lastInsertId(id);
            return;
        }
        if (unresolvedAt == NONE) {
            unresolvedAt = holdCount;
            prior = state.lastInsertId();
            exact = prior == value;
            reportedCount = 0;
        }
        exact |= setsExpr;
        if (response.lastInsertId() > 0) {
            if (reported == null) {
                reported = new long[REPORTED_KEPT];
            }
            reported[reportedCount % REPORTED_KEPT] = response.lastInsertId();
            reportedCount++;
        }
        state.lastInsertId(SessionVariables.UNKNOWN_ID);
    }

    /** The answer of {@code SELECT LAST_INSERT_ID()} on the held connection; null if it failed. */
    void answered(String answer, TrackedConnection connection) {
        if (unresolvedAt == NONE) {
            return;
        }
        unresolvedAt = NONE;
        if (answer == null) {
            value = lastReportedOr(value);
            return;
        }
        long now = Long.parseUnsignedLong(answer);
        connection.state().lastInsertId(now);
        // The connection's value moved, or is an id the session's statements reported: generated
        // here, so the session's. Unmoved and not reported: the session's statements gave ids
        // without generating one, and the value there is still another session's.
        boolean generatedHere = exact || wasReported(now) || (prior != SessionVariables.UNKNOWN_ID && now != prior);
        if (generatedHere) {
            value = now;
        }
    }

    /**
     * The SET that gives the connection about to run {@code route} the session's value, or null
     * when the statement does not read it or the connection already has it.
     */
    String restoreBefore(RoutedStatement route, TrackedConnection connection, long holdCount) {
        if (!route.readsLastInsertId() || (unresolvedOn(holdCount) && exact)
                || connection.state().lastInsertId() == value) {
            return null;
        }
        connection.state().lastInsertId(value);
        return "last_insert_id = " + Long.toUnsignedString(value);
    }

    /** The held connection went without being asked (lost, or the session ended): most ids are generated. */
    private void dropStale(long holdCount) {
        if (unresolvedAt != NONE && unresolvedAt != holdCount) {
            unresolvedAt = NONE;
            value = exact ? value : lastReportedOr(value);
        }
    }

    private long lastReportedOr(long otherwise) {
        return reportedCount == 0 ? otherwise : reported[(reportedCount - 1) % REPORTED_KEPT];
    }

    private boolean wasReported(long id) {
        for (int i = 0; i < Math.min(reportedCount, REPORTED_KEPT); i++) {
            if (reported[i] == id) {
                return true;
            }
        }
        return false;
    }
}
