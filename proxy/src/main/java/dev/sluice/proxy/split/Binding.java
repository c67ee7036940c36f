package dev.sluice.proxy.split;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.backend.TrackedConnection;
import dev.sluice.proxy.backend.BackendPool;
import java.util.EnumSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Which backend connection a split-mode session holds between statements, and why: a
 * transaction, state pinned to the connection, or something the next statement may ask for.
 * Without a reason the connection goes back to its pool after each statement.
 */
final class Binding {

    private final EnumSet<PinReason> pins = EnumSet.noneOf(PinReason.class);
    /**
     * The statements with a cursor open on the connection (PinReason.OPEN_CURSOR while any is); the
     * shared empty set until one opens.
     */
    private Set<ProxyStatement> openCursors = java.util.Collections.emptySet();
    private final Consumer<PinReason> onPinned;
    private TrackedConnection connection;
    private BackendPool pool;
    private boolean inTransaction;
    /** A prepare just ran: MariaDB clients may execute it at once by id -1, on this connection. */
    private boolean keepForNext;
    /**
     * The last statement left something on its connection that only the next statement may ask
     * for (an insert id, warnings, a found-rows count): kept for one more statement, given back at
     * once if that one does not ask.
     */
    private boolean keepIfAsked;
    /**
     * The last statement changed rows or reported an insert id: ROW_COUNT() and LAST_INSERT_ID()
     * are asked by the code that sent it, at once. Kept for the next statement as above, but given
     * back after a short idle time ({@link #lingersBriefly}), so that sessions idle after a write do
     * not hold the pool's connections.
     */
    private boolean keepBriefly;
    /**
     * What {@link #keepIfAsked} keeps has had a read that names no table run past it: kept for the
     * next statement, but given back after a short idle time like a row count, so that a session
     * that pings (SELECT 1) after a warning does not hold the connection for good.
     */
    private boolean keptPastRead;
    private long holds;

    Binding(Consumer<PinReason> onPinned) {
        this.onPinned = onPinned;
    }

    TrackedConnection connection() {
        return connection;
    }

    BackendPool pool() {
        return pool;
    }

    boolean inTransaction() {
        return inTransaction;
    }

    boolean pinned() {
        return !pins.isEmpty();
    }

    Set<String> pinLabels() {
        Set<String> labels = new TreeSet<>();
        pins.forEach(pin -> labels.add(pin.label()));
        return labels;
    }

    /**
     * Counts the connections held: two statements ran on the same connection with nothing of
     * another session's in between when they saw the same count.
     */
    long holdCount() {
        return holds;
    }

    void hold(TrackedConnection held, BackendPool from) {
        if (held != connection) {
            holds++;
        }
        connection = held;
        pool = from;
    }

    /** Forgets the connection without giving it back (it is gone, or given back elsewhere). */
    void drop() {
        connection = null;
        pool = null;
    }

    void pin(PinReason reason) {
        if (pins.add(reason)) {
            onPinned.accept(reason);
        }
    }

    /** The transaction was ended by the proxy's own COMMIT. */
    void transactionEnded() {
        inTransaction = false;
    }

    /** The proxy began a transaction on the held connection. */
    void transactionBegun() {
        inTransaction = true;
    }

    /** Pins or unpins, for a reason a response starts or ends. */
    void pinned(PinReason reason, boolean pin) {
        if (pin) {
            pin(reason);
        } else {
            pins.remove(reason);
        }
    }

    /**
     * Before a statement: a connection kept only in case the next statement asked goes back. True
     * if it went.
     */
    boolean releaseUnlessAskedFor(RoutedStatement next, boolean preparedStatement) {
        boolean stays = keepsHere(next);
        boolean released = releasesBefore(next, preparedStatement);
        if (released) {
            give(false);
        }
        keepIfAsked = keepIfAsked && connection != null && stays;
        keptPastRead = keepIfAsked && (keptPastRead || !next.readsLastConnection());
        keepBriefly = false;
        return released;
    }

    /** Whether {@link #releaseUnlessAskedFor} gives the connection back before {@code next}. */
    boolean releasesBefore(RoutedStatement next, boolean preparedStatement) {
        // Kept for what the last statement left, a prepared statement's command stays where it is
        // prepared, and a read that names no table runs there and leaves it in place; kept only
        // for a row count, the connection goes whatever comes.
        boolean kept = keepIfAsked ? !preparedStatement && !keepsHere(next) : keepBriefly;
        return connection != null && kept && !next.readsLastConnection() && !inTransaction && pins.isEmpty()
                && !keepForNext;
    }

    /**
     * Whether {@code next} runs on the held connection and leaves what is kept there in place: a
     * read that may run anywhere ({@link RoutedStatement#keepsDiagnostics}), or a statement that
     * names no table where the primary's connection is held (SET @v = 1 after an error there).
     * Not one that reads what the connection holds (LAST_INSERT_ID()): that would hold the
     * connection until the session's next statement, however long it idles.
     */
    private boolean keepsHere(RoutedStatement next) {
        return next.keepsDiagnostics() || next.tableFree() && !next.readsLastConnection() && connection != null
                && connection.backend().isPrimary();
    }

    /**
     * The connection stays for {@code next} instead of going back before it, as if next asked for
     * what the last statement left (only the connection knows the session's LAST_INSERT_ID()).
     */
    void stayFor(RoutedStatement next) {
        keepIfAsked = keepsHere(next);
        keptPastRead = false;
        keepBriefly = false;
    }

    /**
     * A write finds the session on a replica's connection: it is given back unless a transaction
     * or pinned state holds it there. A prepare just done there does not hold it: what was
     * prepared is a read, so it is not what this write executes. True if given back.
     */
    boolean releaseUnlessTied() {
        if (connection != null && !inTransaction && pins.isEmpty()) {
            keepForNext = false;
            give(false);
            return true;
        }
        return false;
    }

    /** What a response says about holding on: transaction state, pins made or released. */
    void afterResponse(int command, RoutedStatement route, ProxyStatement statement, Response response,
                       boolean prepared) {
        if (response.statusKnown()) {
            inTransaction = response.inTransaction();
        }
        keepForNext = prepared;
        if (response.warnings() > 0 || response.isError() || route.keepForNext()) {
            keepIfAsked = true;
            keptPastRead = false;
        }
        keepBriefly = keepBriefly || response.lastInsertId() > 0 || route.changesRows();
        // After an error too when a multi-statement or a procedure may have got partway first; a
        // single statement that failed made nothing.
        if (!route.pins().isEmpty() && (!response.isError() || route.callsProcedure() || route.multiStatement())) {
            for (PinReason reason : route.pins()) {
                pin(reason);
            }
        }
        if (!response.isError() && !route.releases().isEmpty()) {
            pins.removeAll(route.releases());
        } else if (route.callsProcedure()) {
            // A procedure's error comes without the session-state report of what it did before.
            pin(PinReason.UNTRACKED_STATE);
        }
        if (statement != null) {
            if (response.cursorExists()) {
                if (!(openCursors instanceof java.util.HashSet)) {
                    openCursors = new java.util.HashSet<>();
                }
                openCursors.add(statement);
            } else if (command == Commands.COM_STMT_EXECUTE || command == Commands.COM_STMT_RESET && !response.isError()
                    || command == Commands.COM_STMT_FETCH && response.lastRowSent()) {
                // Executing again closes the statement's cursor first, as a reset does.
                openCursors.remove(statement);
            }
            cursorsChanged();
        }
        if (command == Commands.COM_STMT_EXECUTE) {
            pins.remove(PinReason.LONG_DATA);
        }
    }

    /** COM_STMT_CLOSE: the statement's cursor closes with it (when the close is written, before the next command there). */
    void statementClosed(ProxyStatement statement) {
        if (openCursors.remove(statement)) {
            cursorsChanged();
        }
    }

    private void cursorsChanged() {
        if (openCursors.isEmpty()) {
            pins.remove(PinReason.OPEN_CURSOR);
        } else {
            pin(PinReason.OPEN_CURSOR);
        }
    }

    /** After a statement: the connection goes back unless something holds it. */
    void releaseIfFree() {
        if (free()) {
            give(false);
        }
    }

    /** Whether {@link #releaseIfFree} gives the connection back now. */
    boolean free() {
        return connection != null && !inTransaction && !keepForNext && !keepIfAsked && !keepBriefly && pins.isEmpty();
    }

    /** Held only in case the next statement asks for a row count, an insert id, or diagnostics a read ran past. */
    boolean lingersBriefly() {
        return connection != null && (keepIfAsked ? keptPastRead : keepBriefly) && !keepForNext && !inTransaction
                && pins.isEmpty();
    }

    /** The session stayed idle after a write: the connection goes back. */
    void releaseLingering() {
        keepBriefly = false;
        keepIfAsked = false;
        keptPastRead = false;
        give(false);
    }

    /**
     * The session ends or starts over: the connection goes back, reset first when a transaction
     * or pinned state would otherwise leak into the next session.
     */
    void releaseForGood() {
        if (connection != null) {
            give(inTransaction || !pins.isEmpty() || !connection.idle());
        }
        pins.clear();
        openCursors.clear();
        inTransaction = false;
        keepForNext = false;
        keepIfAsked = false;
        keptPastRead = false;
        keepBriefly = false;
    }

    /**
     * The held connection, when it is held for having no schema: it stays, with nothing else of
     * the session's (the caller resets it); null, and nothing changed, otherwise.
     */
    TrackedConnection keepWithoutSchema() {
        if (connection == null || !pins.contains(PinReason.NO_SCHEMA)) {
            return null;
        }
        clearPins();
        inTransaction = false;
        return connection;
    }

    /**
     * COM_RESET_CONNECTION: nothing is pinned any more, but for a connection without a schema
     * (the reset keeps the schema, or the lack of one).
     */
    void clearPins() {
        pins.retainAll(Set.of(PinReason.NO_SCHEMA));
        openCursors.clear();
        keepForNext = false;
        keepIfAsked = false;
        keptPastRead = false;
        keepBriefly = false;
    }

    private void give(boolean reset) {
        TrackedConnection given = connection;
        BackendPool to = pool;
        drop();
        if (reset) {
            to.release(given);
        } else {
            to.releaseTracked(given);
        }
    }
}
