package dev.sluice.proxy.split;

import dev.sluice.protocol.Commands;
import dev.sluice.proxy.backend.TrackedConnection;

/**
 * What lets the statement being routed run after all when its backend fails it: a wait for a
 * backend when none is up ({@link PrimaryWait}), a write refused as read_only by a backend that
 * was the primary until now run on the next ({@link ReadOnlyRefusal}), an autocommit write lost
 * with its connection run again once shown not to have run ({@link LostWrite}). Shared by the
 * finding of the statement's connection and its response; all start over with each statement.
 */
final class StatementRetries {

    final PrimaryWait primaryWait;
    final ReadOnlyRefusal readOnlyRefusal = new ReadOnlyRefusal();
    final LostWrite lostWrite;

    StatementRetries(PrimaryWait primaryWait, LostWrite lostWrite) {
        this.primaryWait = primaryWait;
        this.lostWrite = lostWrite;
    }

    /** A new statement: it has not waited, been refused or been lost yet. */
    void reset() {
        primaryWait.reset();
        readOnlyRefusal.reset();
        lostWrite.reset();
    }

    /** {@code command} goes out on {@code connection}: what could run it again if it turns out not to have run. */
    void sent(SplitCommand command, TrackedConnection connection, SplitState state) {
        boolean mayRunAgain = mayRunAgain(command, state);
        // A COMMIT of a transaction that would be replayed: run again once shown not to have committed.
        lostWrite.sent(mayRunAgain || state.transactionLog.commitInFlight(), connection);
        readOnlyRefusal.sent(mayRunAgain, connection.backend());
    }

    /**
     * Whether a write about to be sent could run again on another connection if it turns out not to
     * have run (refused as read_only, or lost with its connection): a statement of its own (autocommit,
     * no transaction), with nothing of the session's tied to its connection.
     */
    private static boolean mayRunAgain(SplitCommand command, SplitState state) {
        return command.route().write() && (command.code() == Commands.COM_QUERY
                || command.code() == Commands.COM_STMT_EXECUTE) && !state.binding.inTransaction()
                && !state.binding.pinned() && !Boolean.FALSE.equals(state.autocommit());
    }

    /** The session ends: a refusal held back goes. */
    void release() {
        readOnlyRefusal.release();
    }
}
