package dev.sluice.proxy.split;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.backend.BackendConnection;
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
    private final Consumer<PinReason> onPinned;
    private BackendConnection connection;
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
    private long holds;

    Binding(Consumer<PinReason> onPinned) {
        this.onPinned = onPinned;
    }

    BackendConnection connection() {
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

    void hold(BackendConnection held, BackendPool from) {
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

    /** Before a statement: a connection kept only in case the next statement asked goes back. */
    void releaseUnlessAskedFor(RoutedStatement next, boolean preparedStatement) {
        if (connection != null && keepIfAsked && !next.readsLastConnection() && !preparedStatement && !inTransaction
                && pins.isEmpty() && !keepForNext) {
            give(false);
        }
        keepIfAsked = keepIfAsked && connection != null && next.keepsDiagnostics();
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
    void afterResponse(int command, RoutedStatement route, Response response, boolean prepared) {
        if (response.statusKnown()) {
            inTransaction = response.inTransaction();
        }
        keepForNext = prepared;
        keepIfAsked = keepIfAsked || response.warnings() > 0 || response.isError() || response.lastInsertId() > 0
                || route.keepForNext();
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
        if (response.cursorExists()) {
            pin(PinReason.OPEN_CURSOR);
        } else if (command == Commands.COM_STMT_FETCH && response.lastRowSent()) {
            pins.remove(PinReason.OPEN_CURSOR);
        }
        if (command == Commands.COM_STMT_EXECUTE) {
            pins.remove(PinReason.LONG_DATA);
        }
    }

    /** After a statement: the connection goes back unless something holds it. */
    void releaseIfFree() {
        if (connection != null && !inTransaction && !keepForNext && !keepIfAsked && pins.isEmpty()) {
            give(false);
        }
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
        inTransaction = false;
        keepForNext = false;
        keepIfAsked = false;
    }

    /**
     * COM_RESET_CONNECTION: nothing is pinned any more, but for a connection without a schema
     * (the reset keeps the schema, or the lack of one).
     */
    void clearPins() {
        pins.retainAll(Set.of(PinReason.NO_SCHEMA));
        keepForNext = false;
        keepIfAsked = false;
    }

    private void give(boolean reset) {
        BackendConnection given = connection;
        BackendPool to = pool;
        drop();
        if (reset) {
            to.release(given);
        } else {
            to.releaseTracked(given);
        }
    }
}
