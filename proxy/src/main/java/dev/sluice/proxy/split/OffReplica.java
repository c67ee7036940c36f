package dev.sluice.proxy.split;

import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.TrackedConnection;
import dev.sluice.proxy.command.Replies;
import java.util.Set;

/**
 * A statement the replica connection a split session holds is no place for: a write where the
 * last read left something the next statement might ask for (its warnings, say), a statement in
 * a READ ONLY transaction there that the primary would answer differently. It is refused, or the
 * transaction is committed there (it has written nothing) and the statement goes to the primary,
 * where the transaction starts again if the statement makes state that outlives it.
 */
final class OffReplica {

    private final SplitState state;
    private final ConnectionFinder finder;
    /**
     * The command being routed makes state in a READ ONLY transaction that was on a replica: the
     * transaction starts again on the primary, and the statement runs there.
     */
    private boolean transactionMoves;

    OffReplica(SplitState state, ConnectionFinder finder) {
        this.state = state;
        this.finder = finder;
    }

    /** A new command is routed. */
    void reset() {
        transactionMoves = false;
    }

    /** The READ ONLY transaction is to start again on the primary's connection before the command runs. */
    boolean transactionMoves() {
        return transactionMoves;
    }

    /**
     * A replica's connection kept for what the last read left there (its warnings, say) is no
     * place for a write; nor is a READ ONLY transaction there for what the primary would answer
     * differently. False when the command was handled here (refused, or on its way elsewhere).
     */
    boolean movedOff(SplitCommand command, Set<Backend> avoid) {
        Binding binding = state.binding;
        TrackedConnection bound = binding.connection();
        RoutedStatement route = command.route();
        if (bound == null || bound.backend().isPrimary() || !(route.write() || route.needsPrimaryTransaction())) {
            return true;
        }
        if (binding.inTransaction()) {
            if (route.write() && route.changesRows()) {
                refuseInReadOnlyTransaction(command);
                return false;
            }
            boolean commitsFirst = route.write() && route.commitsFirst();
            if (!binding.pinned() && (commitsFirst || route.needsPrimaryTransaction())) {
                commitReplicaTransaction(command, avoid, !commitsFirst);
                return false;
            }
        } else if (route.write() && binding.releaseUnlessTied()) {
            if (route.readsLastConnection() || route.tableFree()) {
                state.carriedError.carryOver();
            }
        } else if (route.write()) {
            // State made where a routing hint or rule sent a statement ties the session to this
            // replica: say so, rather than relay the replica's "running with the --read-only option".
            finder.fail(command, Replies.READ_ONLY_SERVER, "HY000", "Sluice: this session is tied to replica "
                    + bound.backend().name() + " by " + String.join(", ", binding.pinLabels())
                    + " made there, and a write cannot run there; end that state (or reconnect) to write");
            return false;
        }
        return true;
    }

    /**
     * The replica raises the primary's error itself (SIGNAL), so that it is also what SHOW ERRORS,
     * @@error_count and GET DIAGNOSTICS there tell next, as they would on the primary.
     */
    private void refuseInReadOnlyTransaction(SplitCommand command) {
        String message = "Cannot execute statement in a READ ONLY transaction";
        state.binding.connection().sendOwnQuery(CarriedError.signal("25006", Replies.READ_ONLY_TRANSACTION, message),
                row -> { }, done -> {
            if (finder.stillRouting(command)) {
                state.binding.afterResponse(command.code(), RoutedStatement.PRIMARY, null, done, false);
                finder.fail(command, Replies.READ_ONLY_TRANSACTION, "25006", message);
            }
        });
    }

    /**
     * The READ ONLY transaction on a replica is committed there (it has written nothing) before
     * {@code command} goes where it can run. A statement that commits first (LOCK TABLES, DDL,
     * BEGIN) would have committed it anyway. State that outlives the transaction (a user variable
     * or lock, PREPARE) would tie the session to the replica, where its writes cannot run after
     * it: the transaction then starts again on the primary ({@code restart}), where the statement
     * runs. Reads before it saw the replica's snapshot.
     */
    private void commitReplicaTransaction(SplitCommand command, Set<Backend> avoid, boolean restart) {
        Backend on = state.binding.connection().backend();
        state.binding.connection().sendOwnQuery("COMMIT", row -> { }, done -> {
            if (!finder.stillRouting(command)) {
                return;
            }
            state.binding.transactionEnded();
            if (done.isError()) {
                // A primary turned replica under a transaction that wrote refuses its COMMIT (1290) and
                // rolls it back: the client must hear so, not see its next statement succeed.
                finder.fail(command, done.errorCode(), done.sqlState(), "Sluice could not end the transaction on "
                        + on.name() + " before this statement: " + done.errorMessage());
                return;
            }
            // Even if the last read left something the next statement might ask for there.
            state.binding.releaseUnlessTied();
            transactionMoves = restart;
            finder.route(command, avoid);
        });
    }

    /** Starts the moved READ ONLY transaction on the primary's connection, then sends the statement. */
    void beginMovedTransaction(SplitCommand command, TrackedConnection connection) {
        transactionMoves = false;
        // The session is in the transaction from its first step on, also when the statement is
        // killed meanwhile: its connection must not go back to the pool in it.
        state.replicaTransaction.restartOn(connection, state.binding::transactionBegun, () -> {
            if (finder.stillRouting(command)) {
                finder.deliver(command, connection);
            }
        }, failed -> {
            if (finder.stillRouting(command)) {
                finder.fail(command, failed.errorCode(), failed.sqlState(), "Sluice could not move the READ ONLY"
                        + " transaction to " + connection.backend().name() + ": " + failed.errorMessage());
            }
        });
    }
}
