package dev.sluice.proxy.split;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.packet.SessionStateChange;
import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.ResponseListener;
import dev.sluice.proxy.backend.TrackedConnection;
import dev.sluice.proxy.client.ClientOrigin;
import dev.sluice.proxy.command.Replies;
import dev.sluice.proxy.observe.StatementContext;
import dev.sluice.proxy.observe.StatementObserver;
import dev.sluice.proxy.routing.PrimaryStatus;
import dev.sluice.proxy.session.CommandSession;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A split session's statement on its connection: sent, its response passed to the client (the
 * proxy's statement id in a prepare's OK), the session state its OKs report, and what its end
 * leaves held: a connection kept for what the next statement may ask goes back after a short
 * idle time, and LAST_INSERT_ID() is settled before a connection that knows it goes. A connection
 * lost meanwhile fails the statement, or runs an autocommit read once more elsewhere.
 */
final class SplitResponses implements ResponseListener {

    private static final Logger log = LoggerFactory.getLogger(SplitResponses.class);
    /** Gives back a connection kept after a write once the session stays idle this long. */
    private static final long LINGER_MILLIS = 200;

    private final SplitPath path;
    private final SplitState state;
    private final StatementRetries retries;
    private final PrimaryStatus primaries;
    private final CommandSession session;
    private final Channel client;
    /** The command in flight, for what its response changes. */
    private SplitCommand current;
    private Backend currentBackend;
    private boolean responseStarted;
    /** The statement in flight was already retried once after its replica died. */
    private boolean retried;
    private ScheduledFuture<?> lingering;

    SplitResponses(SplitPath path, SplitState state, StatementRetries retries, PrimaryStatus primaries,
                   CommandSession session) {
        this.path = path;
        this.state = state;
        this.retries = retries;
        this.primaries = primaries;
        this.session = session;
        this.client = session.client();
    }

    /** The response to the statement in flight has begun reaching the client. */
    boolean responseStarted() {
        return responseStarted;
    }

    void send(SplitCommand command, TrackedConnection connection) {
        // The write gives one reference away; the session keeps its own until the response ends
        // (a prepare's SQL is read again then).
        ByteBuf frame = command.frame().retain();
        // Observers see the client's frame, with the proxy's statement ids, before the rewrite.
        StatementObserver observers = session.services().observers().current();
        StatementContext statement = null;
        if (Commands.expectsNoResponse(command.code())) {
            observers.onNoResponseCommand(session.killable(), command.code(), frame);
        } else {
            // A statement's context was made when it was routed; any other command's is made now.
            boolean routedSql = command.code() == Commands.COM_QUERY || command.code() == Commands.COM_STMT_PREPARE;
            statement = routedSql ? state.sql : state.sql.reset(frame);
            observers.onCommand(session.killable(), statement);
        }
        if (command.statement() != null) {
            frame = ExecuteRewriter.rewrite(frame, command.statement(), connection);
        }
        session.armQueryTimeout(command.code());
        state.transactionLog.sent(command, connection, state.binding.inTransaction(),
                Boolean.FALSE.equals(state.autocommit()), state.desired,
                command.code() == Commands.COM_QUERY ? state.sql.classification() : null);
        current = command;
        currentBackend = connection.backend();
        state.previousStatementHold = state.binding.holdCount();
        path.phase(SplitPath.Phase.IN_FLIGHT);
        responseStarted = false;
        retries.sent(command, connection, state);
        state.readBacks.statementSent();
        connection.expect(command.code(), this, command.route().scopedVariables(),
                statement == null ? null : statement.answer());
        connection.write(frame);
        connection.flush();
        if (Commands.expectsNoResponse(command.code())) {
            finish(null);
        }
    }

    @Override
    public void onResponseBytes(ByteBuf bytes) {
        if (retries.readOnlyRefusal.hold(bytes, !responseStarted)) {
            return;
        }
        if (!responseStarted && current != null && current.code() == Commands.COM_STMT_PREPARE) {
            state.statements.rewritePrepareOk(bytes);
        }
        responseStarted = true;
        state.transactionLog.answerBytes(bytes);
        client.write(bytes, client.voidPromise());
    }

    @Override
    public void onReadComplete() {
        client.flush();
    }

    @Override
    public void onSessionState(List<SessionStateChange> changes, Set<String> restored) {
        RoutedStatement route = current == null ? null : current.route();
        TrackedChanges tracked = TrackedChanges.apply(changes, state.desired, state.readYourWrites,
                route != null && route.effectsInText(), route != null && route.scopedVariables() != null,
                current != null && current.code() == Commands.COM_STMT_EXECUTE && !route.callsProcedure(),
                restored, route == null ? List.of() : route.sessionVariablesSet());
        state.readBacks.reported(tracked, changes);
        if (tracked.schemaReported() != null) {
            state.binding.pinned(PinReason.NO_SCHEMA, tracked.schemaReported().isEmpty());
        }
        if (tracked.untracked() && current != null && current.route().pins().isEmpty()) {
            // Correctness first: the session stays where that state is.
            state.binding.pin(PinReason.UNTRACKED_STATE);
        }
    }

    @Override
    public void onResponse(int command, Response response, long latencyNanos) {
        if (retries.readOnlyRefusal.holding()) {
            if (response.isError() && response.errorCode() == ReadOnlyRefusal.OPTION_PREVENTS_STATEMENT) {
                runOnNextPrimary();
                return;
            }
            client.write(retries.readOnlyRefusal.take(), client.voidPromise());
        }
        session.services().observers().current().onResponse(session.killable(), state.sql, currentBackend,
                command == Commands.COM_STMT_PREPARE ? response.withStatementId(state.statements.pendingId()) : response,
                latencyNanos);
        state.readBacks.afterResponse(current == null ? null : current.route(), response, state.binding.connection(),
                () -> finish(response));
    }

    /**
     * The backend taken for the primary refused the write as read_only: it did not run. The health
     * checks take that backend for a replica from now on, and the write goes to the next primary
     * (waiting for one if none is known yet). The client never sees the refusal.
     */
    private void runOnNextPrimary() {
        SplitCommand again = current;
        Backend refused = currentBackend;
        current = null;
        retries.readOnlyRefusal.retried();
        session.services().stats().readOnlyRetried();
        primaries.readOnlySeen(refused);
        // The write before it, on the same connection, may have made the session's LAST_INSERT_ID().
        path.runOnNextPrimary(again, refused, state.lastInsertId.unresolvedOn(state.binding.holdCount()));
    }

    private void finish(Response response) {
        SplitCommand done = current;
        current = null;
        retried = false;
        if (done == null) {
            return;
        }
        if (response != null) {
            Aftermath.record(state, done, currentBackend, response);
            state.transactionLog.answered(state.binding.inTransaction());
        }
        done.frame().release();
        session.responseEnded();
        TrackedConnection bound = state.binding.connection();
        if (done.code() == Commands.COM_RESET_CONNECTION && response != null && !response.isError() && bound != null) {
            // The reset also turned the connection's session tracking off: put it back first.
            path.phase(SplitPath.Phase.ROUTING);
            bound.afterReset(restored -> {
                path.phase(SplitPath.Phase.IDLE);
                state.binding.releaseIfFree();
                session.ready();
            });
            return;
        }
        if (state.lastInsertId.unresolvedOn(state.binding.holdCount()) && state.binding.free()) {
            path.phase(SplitPath.Phase.ROUTING);
            askLastInsertId(() -> {
                if (!session.ended()) {
                    releaseAndGoOn();
                }
            });
            return;
        }
        releaseAndGoOn();
    }

    private void releaseAndGoOn() {
        path.phase(SplitPath.Phase.IDLE);
        state.binding.releaseIfFree();
        if (state.binding.lingersBriefly()) {
            long hold = state.binding.holdCount();
            lingering = client.eventLoop().schedule(() -> endLingering(hold), LINGER_MILLIS, TimeUnit.MILLISECONDS);
        }
        session.ready();
    }

    /** The next command came: the connection kept after a write stays for it (or goes as it decides). */
    void cancelLingering() {
        if (lingering != null) {
            lingering.cancel(false);
            lingering = null;
        }
    }

    /** The session stayed idle after a write: the connection it kept in case it asked goes back. */
    private void endLingering(long hold) {
        lingering = null;
        Binding binding = state.binding;
        if (path.busy() || !binding.lingersBriefly() || binding.holdCount() != hold) {
            return;
        }
        if (!state.lastInsertId.unresolvedOn(hold)) {
            binding.releaseLingering();
            return;
        }
        path.phase(SplitPath.Phase.ROUTING);
        askLastInsertId(() -> {
            if (!session.ended()) {
                path.phase(SplitPath.Phase.IDLE);
                if (binding.lingersBriefly()) {
                    binding.releaseLingering();
                }
                session.ready();
            }
        });
    }

    /**
     * Asks the held connection for LAST_INSERT_ID(), which only it knows after an insert id was
     * reported there ({@link LastInsertId}), then goes on.
     */
    void askLastInsertId(Runnable then) {
        TrackedConnection connection = state.binding.connection();
        String[] answer = new String[1];
        connection.sendOwnQuery("SELECT LAST_INSERT_ID()", row -> answer[0] = ConnectionSetup.firstColumn(row), done -> {
            state.lastInsertId.answered(done.isError() ? null : answer[0], connection);
            then.run();
        });
    }

    @Override
    public void onBackendLost(String reason) {
        log.info("session {}: {}", ClientOrigin.of(client), reason);
        Backend lost = currentBackend;
        Binding binding = state.binding;
        binding.drop();
        boolean inFlight = path.phase() == SplitPath.Phase.IN_FLIGHT;
        if (inFlight && !responseStarted && !retried && current != null && current.route().target() == Target.REPLICA
                && !current.route().write() && !binding.inTransaction() && !binding.pinned() && lost != null) {
            // An autocommit read whose backend died before answering: once more, elsewhere (or on
            // the primary once it is back, within primary_wait).
            retried = true;
            SplitCommand again = current;
            dropCurrent();
            path.retry(again, Set.of(lost));
            return;
        }
        if (inFlight && !responseStarted && current != null && !binding.inTransaction() && !binding.pinned()
                && retries.lostWrite.lost()) {
            // An autocommit write that may or may not have run: it runs again only where it is shown it did not.
            SplitCommand again = current;
            dropCurrent();
            path.retry(again, Set.of());
            return;
        }
        String notReplayed = null;
        if (binding.inTransaction()) {
            notReplayed = replayLater(inFlight, lost);
            if (notReplayed == null) {
                return;
            }
        }
        if (binding.inTransaction() || binding.pinned()) {
            // The state this session relied on is gone with the connection.
            session.end(inFlight && !responseStarted ? 1 : 0, Replies.BACKEND_LOST, "08S01", "Lost connection to"
                    + " backend " + (lost == null ? "" : lost.name() + " ") + "during the session: " + reason
                    + (notReplayed == null || !state.transactionLog.enabled() ? ""
                            : "; the transaction was not replayed: " + notReplayed));
        } else if (inFlight && responseStarted) {
            session.end(-1, 0, null, null);
        } else if (inFlight) {
            SplitCommand failed = current;
            dropCurrent();
            path.fail(failed, Replies.BACKEND_LOST, "08S01", "Lost connection to backend "
                    + (lost == null ? "" : lost.name() + " ") + "during query: " + reason);
        } else if (path.phase() == SplitPath.Phase.ROUTING) {
            // The connection died while it was being set up: the statement looks elsewhere.
            path.lostWhileRouting(lost);
        }
        // Else a connection kept in case the next statement asked for it: nothing was lost.
    }

    /**
     * The connection of the session's transaction was lost: the transaction runs again on a new
     * connection before the statement in flight is sent again, or before the next one
     * ({@code transaction_replay}). Null when it will, else why not. A commit in flight runs
     * again only when the server shows it did not commit ({@link LostWrite}), else the client
     * gets 1927 for it.
     */
    private String replayLater(boolean inFlight, Backend lost) {
        Binding binding = state.binding;
        TransactionLog log = state.transactionLog;
        boolean commitInFlight = inFlight && log.commitInFlight();
        String why = binding.pinned() ? "the session holds state made on that connection (" + String.join(", ",
                binding.pinLabels()) + ")"
                : inFlight && responseStarted ? "the answer to the statement in flight had begun to reach the client"
                : inFlight && current == null ? "the statement in flight is gone"
                : commitInFlight && !retries.lostWrite.lost() ? "the connection was lost after a COMMIT was sent,"
                        + " which may have committed" : null;
        if (why != null || (why = log.lost()) != null) {
            log.clear();
            return why;
        }
        binding.transactionEnded();
        if (inFlight) {
            SplitCommand again = current;
            dropCurrent();
            path.retry(again, Set.of());
        } else if (path.phase() == SplitPath.Phase.ROUTING) {
            path.lostWhileRouting(lost);
        }
        return null;
    }

    private void dropCurrent() {
        current = null;
    }

    /** The session ends: what the statement in flight holds goes. */
    void end() {
        cancelLingering();
        retries.release();
        state.transactionLog.clear();
        if (current != null) {
            current.frame().release();
            current = null;
        }
    }
}
