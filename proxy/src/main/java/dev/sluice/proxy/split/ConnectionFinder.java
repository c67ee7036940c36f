package dev.sluice.proxy.split;

import dev.sluice.protocol.Commands;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendConnection;
import dev.sluice.proxy.backend.BackendLoginException;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.proxy.backend.TrackedConnection;
import dev.sluice.proxy.command.Replies;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the connection a split session's command runs on and makes it fit: the one the session
 * holds when something ties it there, else a primary's or a replica's from its pool, then the
 * session's state replayed on it ({@link ConnectionSetup}). On the way it settles what the last
 * statements left unresolved (the session's LAST_INSERT_ID()), moves a READ ONLY transaction off
 * a replica when a statement in it cannot run there ({@link OffReplica}), looks elsewhere when a
 * replica turns out to be behind the session or unreachable, waits for a backend when none is up
 * ({@link PrimaryWait}), and first asks whether a write lost with its connection ran
 * ({@link LostWrite}). The command then goes to {@link Owner#send}.
 */
final class ConnectionFinder {

    /** The session the finder works for. */
    interface Owner {
        boolean ended();

        /** The connection is ready for the command: send it. */
        void send(SplitCommand command, TrackedConnection connection);

        /** The command cannot run: ERR to the client (the frame is released), the session goes on. */
        void fail(SplitCommand command, int code, String sqlState, String message);

        /** The held connection is asked the session's LAST_INSERT_ID() ({@link LastInsertId}), then {@code then} runs. */
        void askLastInsertId(Runnable then);

        /** The connection is the session's from now on: responses and its loss go to the session. */
        void bind(TrackedConnection connection);

        /** The session cannot go on: ERR for the command (whose frame is released), then it ends. */
        void abandon(SplitCommand command, String message);
    }

    private final SplitState state;
    private final SplitBackends backends;
    private final EventLoop loop;
    private final Owner owner;
    private final StatementRetries retries;
    /** The command whose connection is being found or set up, or null. */
    private SplitCommand routing;
    /** A KILL QUERY came while {@link #routing} was being set up: it fails instead of being sent. */
    private boolean interrupted;
    /** A statement the replica connection the session holds is no place for goes elsewhere. */
    private final OffReplica offReplica;
    /** The backends {@link #routing} is not to go to (replicas behind the session, or found unfit). */
    private Set<Backend> avoids = Set.of();
    /** The pool's answer the command waits for, if it waits. */
    private Future<BackendConnection> pendingAcquire;

    ConnectionFinder(SplitState state, SplitBackends backends, StatementRetries retries, EventLoop loop, Owner owner) {
        this.state = state;
        this.backends = backends;
        this.retries = retries;
        this.loop = loop;
        this.owner = owner;
        this.offReplica = new OffReplica(state, this);
    }

    /** The command being routed, or null. */
    SplitCommand routing() {
        return routing;
    }

    void route(SplitCommand command) {
        interrupted = false;
        offReplica.reset();
        retries.reset();
        route(command, state.readYourWrites.slowReplicas(System.nanoTime()));
    }

    void route(SplitCommand command, Set<Backend> avoid) {
        routing = command;
        avoids = avoid;
        Binding binding = state.binding;
        LastInsertId lastInsertId = state.lastInsertId;
        if (lastInsertId.unresolvedOn(binding.holdCount())
                && binding.releasesBefore(command.route(), command.statement() != null)) {
            if (command.route().target() == Target.PRIMARY && binding.connection().backend().isPrimary()) {
                // The next primary statement may as well run there: a stream of inserts asks once.
                binding.stayFor(command.route());
                onConnection(command, binding.connection(), binding.pool());
                return;
            }
            owner.askLastInsertId(() -> {
                if (stillRouting(command)) {
                    route(command, avoid);
                }
            });
            return;
        }
        if (binding.releaseUnlessAskedFor(command.route(), command.statement() != null) && command.route().tableFree()) {
            state.carriedError.carryOver(); // the server keeps its diagnostics through such a statement
        }
        if (!offReplica.movedOff(command, avoid)) {
            return;
        }
        if (binding.connection() != null) {
            onConnection(command, binding.connection(), binding.pool());
            return;
        }
        boolean toReplica = command.route().target() == Target.REPLICA && !Boolean.FALSE.equals(state.autocommit())
                && !offReplica.transactionMoves() && !state.readYourWrites.readOnPrimary(System.nanoTime())
                && !state.transactionLog.replayPending();
        Backend backend = (toReplica ? backends.router().replica(avoid) : Optional.<Backend>empty())
                .or(() -> backends.router().primary(avoid)).orElse(null);
        if (backend == null) {
            waitForBackend(command);
            return;
        }
        acquire(command, backend, avoid);
    }

    /** No backend can take the statement now: it waits for one (timeouts.primary_wait), then fails. */
    private void waitForBackend(SplitCommand command) {
        if (!retries.primaryWait.retryLater(loop, () -> retryRouting(command))) {
            fail(command, BackendLoginException.BACKEND_UNAVAILABLE, "08S01", retries.primaryWait.failure());
        }
    }

    private void retryRouting(SplitCommand command) {
        if (stillRouting(command)) {
            route(command, state.readYourWrites.slowReplicas(System.nanoTime()));
        }
    }

    /** False, and the command's frame released, when the session ended or a KILL failed the command meanwhile. */
    boolean stillRouting(SplitCommand command) {
        if (owner.ended() || routing != command) {
            command.frame().release();
            return false;
        }
        return true;
    }

    private void acquire(SplitCommand command, Backend backend, Set<Backend> avoid) {
        BackendPool pool = backends.pools().apply(backend);
        // The common case, an idle connection on this loop, costs no promise and no listener. A
        // prepared statement's command prefers a connection the statement is prepared on, else the
        // one idle longest, which no session coming back is about to ask for: taking the one used
        // last, 64 sysbench clients prepared each statement on half of the pool's 64 connections
        // within 10 s (8,000 prepares against 256 direct).
        ProxyStatement statement = command.statement();
        BackendConnection idle = pool.takeIdle(state.poolLogin(), loop,
                statement == null ? null : statement.backendIds().keySet());
        if (idle != null) {
            onConnection(command, (TrackedConnection) idle, pool);
            return;
        }
        Future<BackendConnection> acquired = pool.acquire(state.poolLogin(), loop);
        pendingAcquire = acquired;
        acquired.addListener(done -> {
            if (pendingAcquire == acquired) {
                pendingAcquire = null;
            }
            if (owner.ended() || routing != command) {
                // The session ended, or a KILL QUERY failed the statement meanwhile.
                if (done.isSuccess()) {
                    pool.releaseTracked((TrackedConnection) done.getNow());
                }
                command.frame().release();
                return;
            }
            if (!done.isSuccess()) {
                if (done.cause() instanceof BackendLoginException e && !e.refusedByServer()) {
                    Set<Backend> tried = new HashSet<>(avoid);
                    tried.add(backend);
                    Backend other = (backend.isPrimary() ? backends.router().primary(tried)
                            : backends.router().replica(tried).or(() -> backends.router().primary(tried))).orElse(null);
                    if (other != null) {
                        acquire(command, other, tried);
                        return;
                    }
                }
                if (PrimaryWait.worthWaiting(done.cause()) && retries.primaryWait.retryLater(loop,
                        () -> retryRouting(command))) {
                    return;
                }
                BackendLoginException e = done.cause() instanceof BackendLoginException failure ? failure : null;
                fail(command, e == null ? BackendLoginException.BACKEND_UNAVAILABLE : e.errorCode(),
                        e == null ? "08S01" : e.sqlState(), done.cause().getMessage());
                return;
            }
            onConnection(command, (TrackedConnection) done.getNow(), pool);
        });
    }

    private void onConnection(SplitCommand command, TrackedConnection connection, BackendPool pool) {
        state.binding.hold(connection, pool);
        owner.bind(connection);
        if (retries.lostWrite.pending()) {
            verifyLostWrite(command, connection, pool);
            return;
        }
        if (state.transactionLog.replayPending()) {
            TransactionReplay.before(command, connection, state, () -> {
                if (stillRouting(command)) {
                    onConnection(command, connection, pool);
                }
            }, why -> {
                if (stillRouting(command)) {
                    routing = null;
                    owner.abandon(command, why);
                }
            });
            return;
        }
        if (!state.stateInitialised) {
            state.initialiseFrom(connection.loginValues());
        }
        if (command.code() == Commands.COM_RESET_CONNECTION) {
            // Nothing is replayed first: a SET autocommit = 1 there would commit the transaction the
            // reset is to roll back.
            deliver(command, connection);
            return;
        }
        LastInsertId lastInsertId = state.lastInsertId;
        long hold = state.binding.holdCount();
        if (lastInsertId.mustAskBefore(command.route(), hold)) {
            owner.askLastInsertId(() -> {
                if (stillRouting(command)) {
                    onConnection(command, connection, pool);
                }
            });
            return;
        }
        String restoreLastInsertId = lastInsertId.restoreBefore(command.route(), connection, hold);
        boolean leftHere = hold == state.previousStatementHold;
        boolean foreign = !leftHere || state.foreignDiagnostics;
        ConnectionSetup.LastStatement last = foreign && command.route().readsDiagnostics()
                ? ConnectionSetup.LastStatement.OTHERS_DIAGNOSTICS
                : leftHere && command.route().readsLastConnection() ? ConnectionSetup.LastStatement.READ_AS_LEFT
                : ConnectionSetup.LastStatement.NOT_READ;
        state.foreignDiagnostics = foreign && last != ConnectionSetup.LastStatement.OTHERS_DIAGNOSTICS;
        ConnectionSetup.run(connection, state.desired, state.readYourWrites, command.statement(), restoreLastInsertId,
                last, new SetUp(command, connection, pool));
    }

    /** The write lost before runs on {@code connection} only once its backend shows it did not run. */
    private void verifyLostWrite(SplitCommand command, TrackedConnection connection, BackendPool pool) {
        retries.lostWrite.verify(connection, () -> {
            if (stillRouting(command)) {
                onConnection(command, connection, pool);
            }
        }, unknown -> {
            if (stillRouting(command)) {
                // A COMMIT of unknown outcome: the transaction is not run again.
                state.transactionLog.clear();
                state.binding.releaseUnlessTied();
                fail(command, Replies.BACKEND_LOST, "08S01", unknown);
            }
        });
    }

    /** How the set-up of {@code connection} for {@code command} ended. */
    private final class SetUp implements ConnectionSetup.Outcome {
        private final SplitCommand command;
        private final TrackedConnection connection;
        private final BackendPool pool;

        SetUp(SplitCommand command, TrackedConnection connection, BackendPool pool) {
            this.command = command;
            this.connection = connection;
            this.pool = pool;
        }

        @Override
        public void ready() {
            String signal = state.carriedError.takeSignal();
            if (signal != null) {
                state.foreignDiagnostics = false; // what the connection tells next is the session's own error
                connection.sendOwnQuery(signal, row -> { }, raised -> {
                    if (stillRouting(command)) {
                        ready();
                    }
                });
            } else if (offReplica.transactionMoves()) {
                offReplica.beginMovedTransaction(command, connection);
            } else {
                deliver(command, connection);
            }
        }

        @Override
        public void replicaTooSlow() {
            state.binding.drop();
            pool.releaseTracked(connection);
            // Every replica this statement found unfit stays avoided: two replicas that both lack
            // the schema would otherwise send it back and forth for ever.
            Set<Backend> avoid = new HashSet<>(avoids);
            avoid.addAll(state.readYourWrites.slowReplicas(System.nanoTime()));
            avoid.add(connection.backend());
            route(command, avoid);
        }

        @Override
        public void failed(int code, String sqlState, String message) {
            fail(command, code, sqlState, message);
        }
    }

    void deliver(SplitCommand command, TrackedConnection connection) {
        routing = null;
        if (owner.ended()) {
            command.frame().release();
        } else if (interrupted) {
            owner.fail(command, Replies.QUERY_INTERRUPTED, "70100", "Query execution was interrupted");
        } else {
            owner.send(command, connection);
        }
    }

    void fail(SplitCommand command, int code, String sqlState, String message) {
        routing = null;
        owner.fail(command, code, sqlState, message);
    }

    /** The connection {@link #routing} was being set up on was lost: the command looks elsewhere. */
    void lost(Backend lost) {
        SplitCommand again = routing;
        routing = null;
        if (again != null) {
            route(again, lost == null ? Set.of() : Set.of(lost));
        }
    }

    /**
     * The command sent did not run, or may run again: it is routed once more, not to the backends in
     * {@code avoid} (an autocommit read whose backend died before answering, an autocommit write
     * lost with its connection, which then first asks whether it ran).
     */
    void retry(SplitCommand command, Set<Backend> avoid) {
        route(command, avoid);
    }

    /**
     * A write refused as read_only by the backend taken for the primary runs on the next one; what
     * the session's LAST_INSERT_ID() is, which only the connection it leaves knows, is asked first
     * when {@code askLastInsertId}.
     */
    void runOnNextPrimary(SplitCommand command, Backend refused, boolean askLastInsertId) {
        if (!askLastInsertId) {
            state.binding.releaseUnlessTied();
            route(command, Set.of(refused));
            return;
        }
        routing = command;
        owner.askLastInsertId(() -> {
            if (stillRouting(command)) {
                state.binding.releaseUnlessTied();
                route(command, Set.of(refused));
            }
        });
    }

    /**
     * KILL QUERY while routing: a command being set up on its connection fails when it is ready;
     * one waiting in a pool's queue fails now and leaves the queue. True when it failed now.
     */
    boolean interrupt() {
        if (routing == null) {
            return false;
        }
        if (state.binding.connection() != null) {
            interrupted = true;
            return false;
        }
        // acquire() gives back what the pool may still hand over and releases the frame.
        routing = null;
        cancelAcquire();
        return true;
    }

    /** The session ended: a wait in a pool's queue ends too. */
    void cancelAcquire() {
        Future<BackendConnection> pending = pendingAcquire;
        pendingAcquire = null;
        if (pending != null) {
            pending.cancel(false);
        }
    }
}
