package dev.sluice.proxy.split;

import dev.sluice.protocol.Commands;
import dev.sluice.proxy.backend.SessionVariables;
import dev.sluice.proxy.backend.TrackedConnection;
import dev.sluice.proxy.memory.MemoryBudget;
import dev.sluice.proxy.sql.Classification;
import dev.sluice.proxy.sql.TransactionEffect;
import dev.sluice.proxy.stats.ProxyStats;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code transaction_replay} keeps of a split session's open transaction on the primary: the
 * session state it began with, each statement's bytes and a checksum of the answer the client got
 * ({@link ResponseChecksum}). The recording starts with the statement the transaction begins at
 * and is forgotten when the transaction ends. A transaction that does what cannot be run again the
 * same way, or records more than {@code transaction_replay_max_size} (or than the proxy's buffered
 * memory has left), is refused for good, with the reason the client will be told if it is lost.
 */
final class TransactionLog {

    /** A recorded statement also holds its array and list slot: counted against the size too. */
    private static final int ENTRY_OVERHEAD = 96;
    /** A transaction lost this often (its replays lost too) is not replayed once more. */
    private static final int MAX_REPLAYS = 3;

    /** One statement of the transaction: what was sent, and what the client saw of the answer. */
    record Entry(int code, byte[] frame, byte[] checksum, long insertId) {
    }

    private final boolean enabled;
    private final long maxSize;
    private final MemoryBudget budget;
    private final ProxyStats stats;
    private final List<Entry> entries = new ArrayList<>();
    /** The session state before the transaction's first statement; null while nothing is recorded. */
    private SessionVariables start;
    /** The bytes the entries take, reserved from the budget. */
    private long size;
    /** Why this transaction cannot be replayed; null while it can. */
    private String refused;
    /** The statement sent, recorded once its answer is read whole; its cost is reserved meanwhile. */
    private int pendingCode;
    private byte[] pendingFrame;
    private ResponseChecksum pendingChecksum;
    private long pendingCost;
    /**
     * The statement in flight commits the transaction (COMMIT, DDL, BEGIN): its outcome is unknown if
     * its connection is lost. If a transaction is open after it (AND CHAIN, BEGIN), that one starts
     * with it, from {@link #nextStart}, refused for {@link #nextRefused} if not null.
     */
    private boolean commitInFlight;
    private SessionVariables nextStart;
    private String nextRefused;
    /** The transaction's connection was lost: it runs again before the session's next statement. */
    private boolean replayPending;
    private int replays;

    TransactionLog(boolean enabled, long maxSize, MemoryBudget budget, ProxyStats stats) {
        this.enabled = enabled;
        this.maxSize = maxSize;
        this.budget = budget;
        this.stats = stats;
    }

    boolean enabled() {
        return enabled;
    }

    /**
     * A statement goes out on {@code connection}. Outside a transaction it begins one when it is a
     * BEGIN or autocommit is off: the recording starts with it. {@code sql}: its classification
     * (COM_QUERY), else null.
     */
    void sent(SplitCommand command, TrackedConnection connection, boolean inTransaction, boolean autocommitOff,
              SessionVariables desired, Classification sql) {
        commitInFlight = false;
        dropPending();
        if (!enabled) {
            return;
        }
        TransactionEffect effect = sql == null ? TransactionEffect.NONE : sql.transactionEffect();
        boolean begins = effect == TransactionEffect.BEGIN || effect == TransactionEffect.BEGIN_READ_WRITE
                || effect == TransactionEffect.BEGIN_READ_ONLY;
        if (!inTransaction) {
            clear();
            if (!begins && !autocommitOff) {
                // An autocommit statement: it begins nothing, nothing is kept of it.
                return;
            }
            start = desired.copy();
            replays = 0;
        } else if (command.route().commitsFirst() || begins || effect == TransactionEffect.COMMIT
                || effect == TransactionEffect.COMMIT_AND_CHAIN || effect == TransactionEffect.IMPLICIT_COMMIT) {
            commitInFlight = true;
            nextStart = desired.copy();
            nextRefused = null;
        } else if (refused != null) {
            return;
        }
        String why = unrecordable(command, connection);
        if (why != null) {
            if (commitInFlight) {
                nextRefused = why;
            } else {
                refuse(why);
            }
            return;
        }
        if (command.code() == Commands.COM_STMT_PREPARE || command.code() == Commands.COM_STMT_RESET) {
            // Nothing of the transaction: a statement is prepared again where it next executes.
            return;
        }
        long cost = command.frame().readableBytes() + (long) ENTRY_OVERHEAD;
        boolean fits = size + cost <= maxSize;
        if (!fits || !budget.reserve(cost)) {
            why = fits ? "limits.buffered_memory had no room left to record it"
                    : "it passed routing.transaction_replay_max_size (" + maxSize + " bytes)";
            if (commitInFlight) {
                nextRefused = why;
            } else {
                refuse(why);
            }
            return;
        }
        pendingCost = cost;
        pendingCode = command.code();
        pendingFrame = ByteBufUtil.getBytes(command.frame());
        pendingChecksum = new ResponseChecksum(connection.identity().capabilities());
    }

    /** Why {@code command} cannot run again the same way on another connection, or null. */
    private static String unrecordable(SplitCommand command, TrackedConnection connection) {
        int code = command.code();
        if (!connection.backend().isPrimary()) {
            return "it ran on replica " + connection.backend().name();
        }
        if (code != Commands.COM_QUERY && code != Commands.COM_INIT_DB && code != Commands.COM_STMT_PREPARE
                && code != Commands.COM_STMT_RESET) {
            return "it ran a " + Commands.name(code) + " (text statements are replayed, not prepared ones)";
        }
        if (command.route().write() && command.route().readsLastConnection()) {
            return "a write in it read what its connection left (LAST_INSERT_ID(), ROW_COUNT(), CONNECTION_ID(),"
                    + " a user variable...), which another connection would not give the same";
        }
        return null;
    }

    /** Bytes of the answer to the statement sent, as the client gets them. */
    void answerBytes(ByteBuf bytes) {
        if (pendingChecksum != null) {
            pendingChecksum.update(bytes);
        }
    }

    /** The answer ended; {@code inTransaction}: the session is in a transaction after it. */
    void answered(boolean inTransaction) {
        if (commitInFlight) {
            commitInFlight = false;
            // Committed: what was recorded is of no use any more.
            entries.clear();
            budget.release(size);
            size = 0;
            start = nextStart;
            refused = nextRefused;
            nextStart = null;
        }
        if (!inTransaction) {
            clear();
            return;
        }
        if (pendingChecksum == null) {
            return;
        }
        if (pendingChecksum.localInfile() || !pendingChecksum.complete()) {
            boolean localInfile = pendingChecksum.localInfile();
            dropPending();
            refuse(localInfile ? "a LOAD DATA LOCAL INFILE in it read a file of the client's, which the proxy does"
                    + " not keep" : "the proxy could not follow the answer to one of its statements");
            return;
        }
        entries.add(new Entry(pendingCode, pendingFrame, pendingChecksum.finish(), pendingChecksum.insertId()));
        size += pendingCost;
        pendingCost = 0;
        pendingFrame = null;
        pendingChecksum = null;
    }

    /** A ROLLBACK (not to a savepoint): after a lost connection there is nothing to replay before it. */
    static boolean rollsBack(SplitCommand command, dev.sluice.proxy.observe.StatementContext sql) {
        if (command.code() != Commands.COM_QUERY || sql.classification() == null) {
            return false;
        }
        TransactionEffect effect = sql.classification().transactionEffect();
        return effect == TransactionEffect.ROLLBACK || effect == TransactionEffect.ROLLBACK_AND_CHAIN;
    }

    /** The statement in flight commits (or commits first): its outcome is unknown if its connection is lost. */
    boolean commitInFlight() {
        return commitInFlight;
    }

    /**
     * The transaction's connection was lost: why it cannot run again, or null when it will, before
     * the session's next statement (or the one in flight).
     */
    String lost() {
        dropPending();
        String why = !enabled ? "routing.transaction_replay is off"
                : refused != null ? refused
                : start == null ? "its start was not seen"
                : replays >= MAX_REPLAYS ? "its connection was lost " + MAX_REPLAYS + " times"
                : null;
        if (why != null) {
            clear();
            return why;
        }
        replays++;
        replayPending = true;
        return null;
    }

    boolean replayPending() {
        return replayPending;
    }

    /** The replay is done: the statements recorded are the transaction's on its new connection. */
    void replayed() {
        replayPending = false;
        stats.transactionReplayed();
    }

    /** The replay found a difference, or could not be done: the transaction is over. */
    void replayFailed() {
        clear();
        stats.transactionReplayFailed();
    }

    /** The session state the transaction began with. */
    SessionVariables start() {
        return start;
    }

    List<Entry> entries() {
        return entries;
    }

    /** Bytes recorded, for tests and the size bound. */
    long size() {
        return size;
    }

    /** The transaction ended (or the session did): nothing is kept. */
    void clear() {
        entries.clear();
        dropPending();
        budget.release(size);
        size = 0;
        start = null;
        refused = null;
        replayPending = false;
        commitInFlight = false;
        nextStart = null;
    }

    private void refuse(String why) {
        refused = why;
        entries.clear();
        budget.release(size);
        size = 0;
    }

    private void dropPending() {
        budget.release(pendingCost);
        pendingCost = 0;
        pendingFrame = null;
        pendingChecksum = null;
    }
}
