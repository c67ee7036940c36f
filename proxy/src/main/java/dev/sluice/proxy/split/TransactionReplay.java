package dev.sluice.proxy.split;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.backend.ResponseListener;
import dev.sluice.proxy.backend.SessionVariables;
import dev.sluice.proxy.backend.TrackedConnection;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs a lost transaction again on a new connection to the primary ({@code transaction_replay}):
 * the session state it began with is put back ({@link ConnectionSetup}), then each recorded
 * statement is sent as the client sent it, its answer read but not relayed, and its checksum
 * compared with the one of the answer the client got. An insert that generated an id is given the
 * same one with {@code SET insert_id} first (as statement-based replication does), since the lost
 * transaction's ids are not handed out again. An insert that gave the id itself does not use that
 * value up, and the server keeps it for the next insert that generates one: unless the next
 * statement replayed sets its own, the replay fails rather than let it give a wrong id. Any
 * difference ends the replay: the client must not go on in a transaction that answers otherwise
 * than it was told.
 */
final class TransactionReplay implements ResponseListener {

    /** How a replay ended. */
    interface Outcome {
        /** Every statement answered as before: the connection is in the transaction. */
        void replayed();

        /** The transaction cannot go on; {@code why} is for the client. */
        void failed(String why);
    }

    private final TrackedConnection connection;
    private final List<TransactionLog.Entry> entries;
    private final Outcome outcome;
    private int next;
    private ResponseChecksum checksum;
    /** An insert id set aside with SET insert_id was not used: the next insert that generates one would take it. */
    private String unusedInsertId;

    private TransactionReplay(TrackedConnection connection, List<TransactionLog.Entry> entries, Outcome outcome) {
        this.connection = connection;
        this.entries = List.copyOf(entries);
        this.outcome = outcome;
    }

    /**
     * The session's transaction was lost with its connection: it runs again on {@code connection}
     * (the primary's) before {@code command}, which then goes on with {@code goOn}; or the session
     * cannot go on, {@code abandon} says why. A ROLLBACK needs no replay: the transaction was
     * rolled back with its connection.
     */
    static void before(SplitCommand command, TrackedConnection connection, SplitState state, Runnable goOn,
                       Consumer<String> abandon) {
        TransactionLog log = state.transactionLog;
        if (TransactionLog.rollsBack(command, state.sql)) {
            log.clear();
            goOn.run();
            return;
        }
        // In the transaction from its first step on: a connection given back meanwhile is reset.
        state.binding.transactionBegun();
        run(connection, log, state.readYourWrites, new Outcome() {
            @Override
            public void replayed() {
                log.replayed();
                goOn.run();
            }

            @Override
            public void failed(String why) {
                log.replayFailed();
                abandon.accept("Lost connection to the backend during the transaction, which could not be replayed"
                        + " on " + connection.backend().name() + ": " + why);
            }
        });
    }

    /** Replays {@code log}'s transaction on {@code connection}, then tells {@code outcome}. */
    static void run(TrackedConnection connection, TransactionLog log, ReadYourWrites readYourWrites, Outcome outcome) {
        TransactionReplay replay = new TransactionReplay(connection, log.entries(), outcome);
        SessionVariables start = log.start().copy();
        ConnectionSetup.run(connection, start, readYourWrites, null, null, ConnectionSetup.LastStatement.NOT_READ, new ConnectionSetup.Outcome() {
            @Override
            public void ready() {
                replay.sendNext();
            }

            @Override
            public void replicaTooSlow() {
                outcome.failed("the new connection could not take the session's schema");
            }

            @Override
            public void failed(int code, String sqlState, String message) {
                outcome.failed(message);
            }
        });
    }

    private void sendNext() {
        if (next == entries.size()) {
            if (unusedInsertId != null) {
                outcome.failed(unusedInsertId);
            } else {
                outcome.replayed();
            }
            return;
        }
        TransactionLog.Entry entry = entries.get(next);
        if (entry.insertId() <= 0) {
            if (unusedInsertId != null) {
                outcome.failed(unusedInsertId);
                return;
            }
            send(entry);
            return;
        }
        connection.sendOwnQuery("SET insert_id = " + Long.toUnsignedString(entry.insertId()), row -> { }, done -> {
            if (done.isError()) {
                outcome.failed("SET insert_id failed: " + done.errorMessage());
            } else {
                send(entry);
            }
        });
    }

    private void send(TransactionLog.Entry entry) {
        checksum = new ResponseChecksum(connection.identity().capabilities());
        connection.expect(entry.code(), this);
        connection.write(connection.channel().alloc().buffer(entry.frame().length).writeBytes(entry.frame()));
        connection.flush();
    }

    @Override
    public void onResponseBytes(ByteBuf bytes) {
        try {
            checksum.update(bytes);
        } finally {
            bytes.release();
        }
    }

    @Override
    public void onReadComplete() {
    }

    @Override
    public void onResponse(int command, Response response, long latencyNanos) {
        TransactionLog.Entry entry = entries.get(next);
        if (!checksum.complete() || !ResponseChecksum.same(checksum.finish(), entry.checksum())) {
            outcome.failed("statement " + (next + 1) + " of " + entries.size() + " (" + excerpt(entry)
                    + ") answered otherwise than before"
                    + (response.isError() ? " (now: " + response.errorCode() + " " + response.errorMessage() + ")" : ""));
            return;
        }
        next++;
        if (entry.insertId() <= 0) {
            sendNext();
            return;
        }
        // Generated here, the id is LAST_INSERT_ID() now; given by the statement, it is not.
        String[] generated = new String[1];
        connection.sendOwnQuery("SELECT LAST_INSERT_ID()", row -> generated[0] = ConnectionSetup.firstColumn(row),
                done -> {
                    boolean used = !done.isError() && Long.toUnsignedString(entry.insertId()).equals(generated[0]);
                    unusedInsertId = used ? null : "statement " + next + " (" + excerpt(entry) + ") gave an"
                            + " AUTO_INCREMENT column a value of its own, and the id " + entry.insertId() + " set aside"
                            + " for it would go to the next insert";
                    sendNext();
                });
    }

    @Override
    public void onBackendLost(String reason) {
        // Told to the session's listener, which owns the connection: it routes the statement again.
    }

    /** The start of a statement's text, for the client's message. */
    private static String excerpt(TransactionLog.Entry entry) {
        if (entry.code() != Commands.COM_QUERY) {
            return Commands.name(entry.code());
        }
        int offset = 5;
        int length = Math.min(entry.frame().length - offset, 60);
        String text = new String(entry.frame(), offset, Math.max(length, 0), StandardCharsets.UTF_8);
        return entry.frame().length - offset > 60 ? text + "..." : text;
    }
}
