package dev.sluice.proxy.split;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.Wire;
import dev.sluice.proxy.backend.TrackedConnection;
import dev.sluice.proxy.backend.OwnCommands;
import dev.sluice.proxy.backend.SessionVariables;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Makes a backend connection fit for a session's next statement, in as few round trips as the
 * differences need: wait until a replica has the session's last write (read_your_writes: gtid),
 * select the session's schema, replay its session variables, prepare its statement there (in the
 * schema the client prepared it in). Each step is skipped when the connection is already right.
 */
final class ConnectionSetup {

    /** What the statement finds of what the session's previous statement left on the connection. */
    enum LastStatement {
        /**
         * It ran here and the statement reads what it left (warnings, FOUND_ROWS()): any statement
         * run first would reset it, so only {@code alsoSet} (which the statement reads too) and a
         * prepare are done, where needed.
         */
        READ_AS_LEFT,
        /** The statement does not read what it left, or it ran on another connection. */
        NOT_READ,
        /**
         * The statement reads the diagnostics area, and what is there is not the session's: its
         * last statement ran on another connection, or this one came from the pool with only
         * statements that name no table run on it since. Another session's warnings there are
         * cleared first by a statement that names a table (the server clears the area only for
         * such statements) and reads nothing.
         */
        OTHERS_DIAGNOSTICS
    }

    private static final String CLEAR_DIAGNOSTICS = "SELECT 1 FROM information_schema.ENGINES LIMIT 0";

    /** How a setup ended. */
    interface Outcome {
        /** The connection is ready: send the statement. */
        void ready();

        /**
         * The replica is behind the session: it did not get to the session's last write in time,
         * or lacks the session's schema (just created on the primary): read elsewhere.
         */
        void replicaTooSlow();

        /** A step failed: the statement cannot run; the client gets this ERR. */
        void failed(int code, String sqlState, String message);
    }

    private final TrackedConnection connection;
    private final SessionVariables desired;
    private final ReadYourWrites readYourWrites;
    private final ProxyStatement statement;
    /** An assignment to add to the replayed variables (last_insert_id), or null. */
    private final String alsoSet;
    private final Outcome outcome;

    private ConnectionSetup(TrackedConnection connection, SessionVariables desired, ReadYourWrites readYourWrites,
                            ProxyStatement statement, String alsoSet, Outcome outcome) {
        this.connection = connection;
        this.desired = desired;
        this.readYourWrites = readYourWrites;
        this.statement = statement;
        this.alsoSet = alsoSet;
        this.outcome = outcome;
    }

    static void run(TrackedConnection connection, SessionVariables desired, ReadYourWrites readYourWrites,
                    ProxyStatement statement, String alsoSet, LastStatement last, Outcome outcome) {
        ConnectionStatements.on(connection).flushCloses();
        ConnectionSetup setup = new ConnectionSetup(connection, desired, readYourWrites, statement, alsoSet, outcome);
        if (last == LastStatement.READ_AS_LEFT) {
            setup.replayVariables(false);
        } else if (last == LastStatement.OTHERS_DIAGNOSTICS) {
            connection.sendOwnQuery(CLEAR_DIAGNOSTICS, row -> { }, cleared -> setup.begin());
        } else {
            setup.begin();
        }
    }

    private void begin() {
        if (!connection.backend().isPrimary()
                && readYourWrites.mustWait(connection.backend(), connection.identity().flavor())) {
            waitForOwnWrites();
        } else {
            selectSchema();
        }
    }

    private void waitForOwnWrites() {
        String[] answer = new String[1];
        connection.sendOwnQuery(readYourWrites.waitStatement(), row -> answer[0] = firstColumn(row), response -> {
            if (!response.isError() && "0".equals(answer[0])) {
                readYourWrites.caughtUp(connection.backend());
                selectSchema();
            } else {
                readYourWrites.tooSlow(connection.backend(), System.nanoTime());
                outcome.replicaTooSlow();
            }
        });
    }

    private void selectSchema() {
        String schema = desired.schema();
        if (schema == null || schema.equals(connection.state().schema())) {
            replayVariables(true);
            return;
        }
        connection.sendOwn(OwnCommands.initDb(connection.channel().alloc(), schema), Commands.COM_INIT_DB, response -> {
            if (!response.isError()) {
                connection.state().schema(schema);
            } else if (!connection.backend().isPrimary()) {
                // Not replicated here yet (CREATE SCHEMA; USE, then a read): the primary has it.
                outcome.replicaTooSlow();
                return;
            } else {
                // Gone on the primary too (dropped by another session): the session has none now.
                desired.schema(null);
            }
            replayVariables(true);
        });
    }

    private void replayVariables(boolean sessionVariables) {
        String set = sessionVariables ? desired.variablesStatementFrom(connection.state()) : null;
        if (alsoSet != null) {
            set = set == null ? "SET SESSION " + alsoSet : set + ", " + alsoSet;
        }
        if (set == null) {
            prepare();
            return;
        }
        connection.sendOwn(OwnCommands.query(connection.channel().alloc(), set), Commands.COM_QUERY, response -> {
            if (response.isError()) {
                outcome.failed(response.errorCode(), response.sqlState(), "Sluice could not replay the session's"
                        + " variables on " + connection.backend().name() + ": " + response.errorMessage());
            } else {
                if (sessionVariables) {
                    connection.state().variablesSetTo(desired);
                }
                prepare();
            }
        });
    }

    private void prepare() {
        if (statement == null || statement.backendId(connection) != null) {
            outcome.ready();
            return;
        }
        String here = connection.state().schema();
        String preparedIn = statement.schema;
        if (here == null || preparedIn == null || preparedIn.equals(here)) {
            sendPrepare(outcome::ready);
            return;
        }
        // Prepared before a USE: the server runs it in the schema it was prepared in; the
        // connection then goes back to the session's schema for what comes after it.
        useSchema(preparedIn, () -> sendPrepare(() -> useSchema(here, outcome::ready)));
    }

    private void sendPrepare(Runnable then) {
        connection.sendOwn(OwnCommands.stmtPrepare(connection.channel().alloc(), statement.sql), Commands.COM_STMT_PREPARE,
                response -> {
                    if (response.isError()) {
                        outcome.failed(response.errorCode(), response.sqlState(), response.errorMessage());
                    } else {
                        ConnectionStatements.on(connection).add(statement, response.statementId());
                        then.run();
                    }
                });
    }

    /** Selects {@code schema} on the connection, then goes on; where it is gone, stays where it is. */
    private void useSchema(String schema, Runnable then) {
        connection.sendOwn(OwnCommands.initDb(connection.channel().alloc(), schema), Commands.COM_INIT_DB, response -> {
            if (!response.isError()) {
                connection.state().schema(schema);
            }
            then.run();
        });
    }

    /**
     * The first {@code count} columns of a text-protocol row, null for NULL. The row may be a view
     * of a larger buffer, so it is not read to its end.
     */
    static List<String> columns(ByteBuf row, int count) {
        ByteBuf copy = row.duplicate();
        List<String> values = new java.util.ArrayList<>(count);
        while (values.size() < count) {
            long length = Wire.readIntLenenc(copy);
            if (length < 0) {
                values.add(null);
            } else {
                values.add(copy.toString(copy.readerIndex(), (int) length, StandardCharsets.UTF_8));
                copy.skipBytes((int) length);
            }
        }
        return values;
    }

    /** The first column of a text-protocol row, or null for NULL. */
    static String firstColumn(ByteBuf row) {
        ByteBuf copy = row.duplicate();
        long length = Wire.readIntLenenc(copy);
        return length < 0 ? null : copy.toString(copy.readerIndex(), (int) length, StandardCharsets.US_ASCII);
    }
}
