package dev.sluice.proxy.split;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.packet.ComStmtExecute;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.protocol.packet.SessionStateChange;
import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.ProxyRuntime;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendConnection;
import dev.sluice.proxy.backend.BackendLoginException;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.proxy.backend.LoginRequest;
import dev.sluice.proxy.backend.ResponseListener;
import dev.sluice.proxy.backend.SessionVariables;
import dev.sluice.proxy.client.ClientOrigin;
import dev.sluice.proxy.command.ClientCommand;
import dev.sluice.proxy.command.Replies;
import dev.sluice.proxy.kill.KillCommand;
import dev.sluice.proxy.kill.KillableSession;
import dev.sluice.proxy.kill.ProxyIds;
import dev.sluice.proxy.kill.QueryTimeout;
import dev.sluice.proxy.observe.StatementContext;
import dev.sluice.proxy.observe.StatementObserver;
import dev.sluice.proxy.sql.KillStatement;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.concurrent.Future;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The command phase of one client session in split mode. Each statement is routed on its own:
 * reads outside transactions to a replica, everything else to the primary. Between statements the
 * session holds no backend connection unless it must (a transaction, or state pinned to the
 * connection), so thousands of clients share a few backend connections. Before a statement runs
 * on a connection, the session's state (schema, session variables) is replayed there, and its
 * prepared statements are prepared there on first use.
 *
 * <p>Commands are handled one at a time: frames that arrive while one is in progress wait in a
 * queue (and the client is not read meanwhile), which keeps pipelining clients correct.
 */
public final class SplitSession extends ChannelInboundHandlerAdapter
        implements ResponseListener, KillableSession, ChangeUserFlow.Session {

    private static final Logger log = LoggerFactory.getLogger(SplitSession.class);

    private enum Phase { IDLE, ROUTING, IN_FLIGHT, CHANGING_USER, ENDED }

    private final ProxyRuntime runtime;
    private final Channel client;
    private final long clientCapabilities;
    private final SplitStatements statements = new SplitStatements();
    private final PendingCommands queue = new PendingCommands();
    private final Binding binding = new Binding(reason -> runtime().observer().onPinned(this, reason.label()));
    private final SessionVariables desired;
    /** What the login left the session's variables at (the first connection's), once known. */
    private SessionVariables loginValues;
    /**
     * The SQL of the COM_QUERY or COM_STMT_PREPARE being routed or sent, read with the charset and
     * sql_mode {@link #desired} has (the login's charset until the first connection reports one).
     */
    private final StatementContext sql;
    private final long maxPacketSize;
    private LoginRequest login;
    /** What the session asks its pools for: the login without a schema. */
    private LoginRequest poolLogin;
    private final long sessionId;
    private java.util.Map<Object, Object> attributes;
    /**
     * What the observers asked to get back with the response in flight, and those observers: capture may be switched
     * on or off meanwhile, and a token only means something to the observer that made it.
     */
    private Object token;
    private StatementObserver tokenObserver = StatementObserver.NONE;
    private Backend currentBackend;
    private final ReadYourWrites readYourWrites;
    private final LastInsertId lastInsertId = new LastInsertId();
    /** Gives back a connection kept after a write once the session stays idle this long. */
    private static final long LINGER_MILLIS = 200;
    private io.netty.util.concurrent.ScheduledFuture<?> lingering;
    /** Bytes of a command of 16 MiB or more this session holds, counted in {@link ProxyRuntime#bufferedMemory()}. */
    private long heldCommandBytes;
    private final CarriedError carriedError = new CarriedError();
    private final ReplicaTransaction replicaTransaction = new ReplicaTransaction();
    private final ReadBacks readBacks;
    /** The binding's hold count when the last statement was sent: equal while its connection is still held. */
    private long previousStatementHold = -1;
    private final ChangeUserFlow changeUser;
    /** The statement in flight was already retried once after its replica died. */
    private boolean retried;
    /** The pool's answer this session's statement waits for, if it waits. */
    private Future<BackendConnection> pendingAcquire;
    /** How long the statement being routed may still wait for a backend (timeouts.primary_wait). */
    private final PrimaryWait primaryWait;
    /** A write's read_only refusal by a backend that was the primary until now, held back to run it again. */
    private final ReadOnlyRefusal readOnlyRefusal = new ReadOnlyRefusal();
    /** An autocommit write lost with its connection, run again only once the primary shows it did not run. */
    private final LostWrite lostWrite;

    private Phase phase = Phase.IDLE;
    private boolean stateInitialised;
    private boolean responseStarted;
    /** Commands whose response has ended (the query timeout's way to tell one statement from the next). */
    private long responsesDone;
    /** The command in flight, for what its response changes. */
    private Command current;
    /** The command whose connection is being found or set up (before it is in flight). */
    private Command routing;
    /** A KILL QUERY came while {@link #routing} was being set up: it fails instead of being sent. */
    private boolean routingInterrupted;
    /**
     * {@link #routing} makes state in a READ ONLY transaction that was on a replica: the
     * transaction starts again on the primary, and the statement runs there.
     */
    private boolean readOnlyTransactionMoves;
    /** The backends {@link #routing} is not to go to (replicas behind the session, or found unfit). */
    private Set<Backend> routingAvoids = Set.of();

    /** One client command on its way: its frames, its target, what it needs there. */
    private record Command(int code, ByteBuf frame, RoutedStatement route, ProxyStatement statement) {
    }

    public SplitSession(ProxyRuntime runtime, Channel client, long clientCapabilities, LoginRequest login,
                        String schema, long sessionId, byte[] seed, boolean secure) {
        this.sessionId = sessionId;
        this.runtime = runtime;
        this.client = client;
        this.clientCapabilities = clientCapabilities;
        this.login = login;
        this.desired = new SessionVariables(schema);
        this.sql = new StatementContext(login.charset());
        this.maxPacketSize = runtime.config().limits().maxPacketSize();
        this.readYourWrites = new ReadYourWrites(runtime.config().routing(), runtime.acknowledgedWrites(), this::user);
        this.readBacks = new ReadBacks(desired, readYourWrites);
        this.primaryWait = new PrimaryWait(runtime);
        this.lostWrite = new LostWrite(runtime);
        this.changeUser = new ChangeUserFlow(runtime, client, clientCapabilities, seed, secure, this);
        runtime.registerSession(sessionId, this);
        runtime.observer().onSessionStart(this);
    }

    private ProxyRuntime runtime() {
        return runtime;
    }

    @Override
    public long sessionId() {
        return sessionId;
    }

    @Override
    public String user() {
        return login.user();
    }

    @Override
    public java.net.SocketAddress clientAddress() {
        return ClientOrigin.of(client).source();
    }

    @Override
    public String schema() {
        return desired.schema();
    }

    @Override
    public Set<String> pins() {
        return binding.pinLabels();
    }

    @Override
    public String backendName() {
        return binding.connection() == null ? null : binding.connection().backend().name();
    }

    @Override
    public int loginCollation() {
        return login.charset();
    }

    @Override
    public java.util.Map<String, String> changedVariables() {
        java.util.Map<String, String> changed = new java.util.TreeMap<>();
        desired.variables().forEach((name, value) -> {
            if (loginValues == null || !value.equals(loginValues.variable(name))) {
                changed.put(name, value);
            }
        });
        return changed;
    }

    @Override
    public java.util.Map<Object, Object> attributes() {
        if (attributes == null) {
            attributes = new java.util.HashMap<>();
        }
        return attributes;
    }

    // ---- client side ----

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        if (phase == Phase.ENDED) {
            frame.release();
            return;
        }
        BackendConnection bound = binding.connection();
        if (phase == Phase.IN_FLIGHT && bound != null && bound.expectsClientData()) {
            bound.writeClientData(frame, RawPacketDecoder.payloadLength(frame));
            return;
        }
        if (phase == Phase.CHANGING_USER) {
            changeUser.read(frame);
            return;
        }
        queue.add(frame);
        if (phase == Phase.IDLE) {
            next();
        } else {
            client.config().setAutoRead(false);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (binding.connection() != null) {
            binding.connection().flush();
        }
    }

    /**
     * A command of 16 MiB or more is held until it is whole, and then until its response ends:
     * {@code bytes} of it now, counted against the memory all sessions share for that.
     */
    private boolean holdIncoming(long bytes) {
        if (bytes > heldCommandBytes) {
            if (!runtime.bufferedMemory().reserve(bytes - heldCommandBytes)) {
                end(1, Replies.PACKET_TOO_LARGE, "08S01", "Sluice: large commands and capture hold "
                        + (runtime.bufferedMemory().held() >> 20) + " MiB, and this command's "
                        + (bytes >> 20) + " MiB would pass limits.buffered_memory ("
                        + (runtime.bufferedMemory().limit() >> 20) + " MiB)");
                return false;
            }
            heldCommandBytes = bytes;
        }
        return true;
    }

    private void releaseHeldCommand() {
        if (heldCommandBytes > 0) {
            runtime.bufferedMemory().release(heldCommandBytes);
            heldCommandBytes = 0;
        }
    }

    /** Takes the next queued command, if any, and starts it. */
    private void next() {
        while (phase == Phase.IDLE && !queue.isEmpty()) {
            long length = queue.firstLength(maxPacketSize);
            if (length > maxPacketSize) {
                end(1, Replies.PACKET_TOO_LARGE, "08S01", ClientCommand.tooLarge(maxPacketSize));
                return;
            }
            if (length < 0) {
                if (!holdIncoming(-length)) {
                    return;
                }
                break;
            }
            if (length >= Packet.MAX_PAYLOAD && !holdIncoming(length)) {
                return;
            }
            ByteBuf frame = queue.takeFirst(client.alloc());
            if (length == 0) {
                frame.release();
                end(1, Replies.UNKNOWN_COMMAND, "08S01", ClientCommand.EMPTY);
                return;
            }
            start(frame);
        }
        if (phase == Phase.IDLE) {
            client.config().setAutoRead(true);
        }
    }

    private void start(ByteBuf frame) {
        if (lingering != null) {
            lingering.cancel(false);
            lingering = null;
        }
        int code = frame.getUnsignedByte(frame.readerIndex() + Packet.HEADER_SIZE);
        switch (ClientCommand.of(code)) {
            case QUIT -> {
                frame.release();
                phase = Phase.ENDED;
                client.close();
            }
            case PING -> {
                frame.release();
                replyOk();
            }
            case REFUSED -> {
                frame.release();
                replyErr(Replies.UNKNOWN_COMMAND, "08S01", ClientCommand.refusal(code));
            }
            case SQL -> {
                if (code == Commands.COM_STMT_PREPARE && statements.full()) {
                    frame.release();
                    replyErr(Replies.TOO_MANY_PREPARED, "42000", "Can't create more than max_prepared_stmt_count"
                            + " statements (current value: " + SplitStatements.MAX_PER_SESSION + ")");
                } else {
                    withProxyId(code, frame);
                }
            }
            case PREPARED_STATEMENT -> statementCommand(code, frame);
            case STATEMENT_CLOSE -> {
                ProxyStatement closed = statements.close(frame);
                if (closed != null) {
                    binding.statementClosed(closed);
                }
                frame.release();
                next();
            }
            case RESET_CONNECTION -> resetConnection(frame);
            case CHANGE_USER -> {
                phase = Phase.CHANGING_USER;
                changeUser.start(frame);
            }
            case SET_OPTION -> {
                binding.pin(PinReason.SET_OPTION);
                route(new Command(code, frame, RoutedStatement.PRIMARY, null));
            }
            case OTHER -> route(new Command(code, frame, RoutedStatement.PRIMARY, null));
        }
    }

    /** The name the server's ER_UNKNOWN_STMT_HANDLER gives each command (its function's). */
    private static String serverFunction(int code) {
        return switch (code) {
            case Commands.COM_STMT_FETCH -> "mysqld_stmt_fetch";
            case Commands.COM_STMT_RESET -> "mysqld_stmt_reset";
            default -> "mysqld_stmt_execute";
        };
    }

    private void statementCommand(int code, ByteBuf frame) {
        ProxyStatement statement = statements.lookup(frame);
        if (statement == null && code == Commands.COM_STMT_SEND_LONG_DATA) {
            // It has no response, not even an error: the server drops it too.
            frame.release();
            next();
            return;
        }
        if (statement == null) {
            String message = "Unknown prepared statement handler (" + SplitStatements.idOf(frame) + ") given to "
                    + serverFunction(code);
            frame.release();
            replyErr(Replies.UNKNOWN_STATEMENT, "HY000", message);
            return;
        }
        if (code == Commands.COM_STMT_RESET
                && (binding.connection() == null || statement.backendId(binding.connection()) == null)) {
            // Nothing of it lives on a connection: nothing to reset.
            frame.release();
            replyOk();
            return;
        }
        if (code == Commands.COM_STMT_SEND_LONG_DATA) {
            binding.pin(PinReason.LONG_DATA);
        }
        if (opensCursor(code, frame) && !binding.inTransaction()) {
            BackendConnection bound = binding.connection();
            if (bound != null && !bound.backend().isPrimary()) {
                binding.releaseUnlessTied();
            }
            route(new Command(code, frame, statement.route.onPrimary(), statement));
            return;
        }
        route(new Command(code, frame, statement.route, statement));
    }

    /**
     * A COM_STMT_EXECUTE that asks for a cursor. Outside a transaction it runs on the primary: the
     * cursor ties the session to its connection until it is read to its end, and the session may
     * write before that (Connector/J leaves a cursor closed early open until the statement runs again).
     */
    private static boolean opensCursor(int code, ByteBuf frame) {
        return code == Commands.COM_STMT_EXECUTE && frame.readableBytes() > Packet.HEADER_SIZE + 5
                && (frame.getUnsignedByte(frame.readerIndex() + Packet.HEADER_SIZE + 5)
                & (ComStmtExecute.CURSOR_TYPE_READ_ONLY | ComStmtExecute.CURSOR_TYPE_FOR_UPDATE
                | ComStmtExecute.CURSOR_TYPE_SCROLLABLE)) != 0;
    }

    // ---- routing and state replay ----

    private void route(Command command) {
        routingInterrupted = false;
        readOnlyTransactionMoves = false;
        primaryWait.reset();
        readOnlyRefusal.reset();
        lostWrite.reset();
        route(command, readYourWrites.slowReplicas(System.nanoTime()));
    }

    private void route(Command command, Set<Backend> avoid) {
        phase = Phase.ROUTING;
        routing = command;
        routingAvoids = avoid;
        client.config().setAutoRead(false);
        if (lastInsertId.unresolvedOn(binding.holdCount())
                && binding.releasesBefore(command.route(), command.statement() != null)) {
            if (command.route().target() == Target.PRIMARY && binding.connection().backend().isPrimary()) {
                // The next primary statement may as well run there: a stream of inserts asks once.
                binding.stayFor(command.route());
                onConnection(command, binding.connection(), binding.pool());
                return;
            }
            askLastInsertId(() -> {
                if (stillRouting(command)) {
                    route(command, avoid);
                }
            });
            return;
        }
        binding.releaseUnlessAskedFor(command.route(), command.statement() != null);
        BackendConnection bound = binding.connection();
        RoutedStatement route = command.route();
        if (bound != null && !bound.backend().isPrimary() && (route.write() || route.needsPrimaryTransaction())) {
            // A replica's connection kept for what the last read left there (its warnings, say) is
            // no place for a write; nor is a READ ONLY transaction there for what the primary would
            // answer differently.
            if (binding.inTransaction()) {
                if (route.write() && route.changesRows()) {
                    refuseInReadOnlyTransaction(command);
                    return;
                }
                boolean commitsFirst = route.write() && route.commitsFirst();
                if (!binding.pinned() && (commitsFirst || route.needsPrimaryTransaction())) {
                    commitReplicaTransaction(command, avoid, !commitsFirst);
                    return;
                }
            } else if (route.write() && binding.releaseUnlessTied()) {
                if (route.readsLastConnection()) {
                    carriedError.carryOver();
                }
            } else if (route.write()) {
                // State made where a routing hint or rule sent a statement ties the session to this
                // replica: say so, rather than relay the replica's "running with the --read-only option".
                routing = null;
                failCommand(command, Replies.READ_ONLY_SERVER, "HY000", "Sluice: this session is tied to replica "
                        + bound.backend().name() + " by " + String.join(", ", binding.pinLabels())
                        + " made there, and a write cannot run there; end that state (or reconnect) to write");
                return;
            }
        }
        if (binding.connection() != null) {
            onConnection(command, binding.connection(), binding.pool());
            return;
        }
        boolean toReplica = command.route().target() == Target.REPLICA && !Boolean.FALSE.equals(autocommit())
                && !readOnlyTransactionMoves
                && !readYourWrites.readOnPrimary(System.nanoTime());
        Backend backend = (toReplica ? runtime.splitRouter().replica(avoid) : java.util.Optional.<Backend>empty())
                .or(() -> runtime.splitRouter().primary(avoid)).orElse(null);
        if (backend == null) {
            waitForBackend(command);
            return;
        }
        acquire(command, backend, avoid);
    }

    /**
     * The replica raises the primary's error itself (SIGNAL), so that it is also what SHOW ERRORS,
     * @@error_count and GET DIAGNOSTICS there tell next, as they would on the primary.
     */
    private void refuseInReadOnlyTransaction(Command command) {
        String message = "Cannot execute statement in a READ ONLY transaction";
        binding.connection().sendOwnQuery(CarriedError.signal("25006", Replies.READ_ONLY_TRANSACTION, message),
                row -> { }, done -> {
            if (stillRouting(command)) {
                routing = null;
                binding.afterResponse(command.code(), RoutedStatement.PRIMARY, null, done, false);
                failCommand(command, Replies.READ_ONLY_TRANSACTION, "25006", message);
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
    private void commitReplicaTransaction(Command command, Set<Backend> avoid, boolean restart) {
        Backend on = binding.connection().backend();
        binding.connection().sendOwnQuery("COMMIT", row -> { }, done -> {
            if (!stillRouting(command)) {
                return;
            }
            binding.transactionEnded();
            if (done.isError()) {
                // A primary turned replica under a transaction that wrote refuses its COMMIT (1290) and
                // rolls it back: the client must hear so, not see its next statement succeed.
                routing = null;
                failCommand(command, done.errorCode(), done.sqlState(), "Sluice could not end the transaction on "
                        + on.name() + " before this statement: " + done.errorMessage());
                return;
            }
            // Even if the last read left something the next statement might ask for there.
            binding.releaseUnlessTied();
            readOnlyTransactionMoves = restart;
            route(command, avoid);
        });
    }

    /** Starts the moved READ ONLY transaction on the primary's connection, then sends the statement. */
    private void beginMovedTransaction(Command command, BackendConnection connection) {
        readOnlyTransactionMoves = false;
        // The session is in the transaction from its first step on, also when the statement is
        // killed meanwhile: its connection must not go back to the pool in it.
        replicaTransaction.restartOn(connection, binding::transactionBegun, () -> {
            if (stillRouting(command)) {
                send(command, connection);
            }
        }, failed -> {
            if (stillRouting(command)) {
                failCommand(command, failed.errorCode(), failed.sqlState(), "Sluice could not move the READ ONLY"
                        + " transaction to " + connection.backend().name() + ": " + failed.errorMessage());
            }
        });
    }

    /** False, and the command's frame released, when the session ended or a KILL failed the command meanwhile. */
    private boolean stillRouting(Command command) {
        if (phase == Phase.ENDED || routing != command) {
            command.frame().release();
            return false;
        }
        return true;
    }

    private void acquire(Command command, Backend backend, Set<Backend> avoid) {
        BackendPool pool = runtime.pool(backend);
        if (poolLogin == null) {
            // No schema: a replica may not have it yet; ConnectionSetup selects it, or reroutes.
            poolLogin = login.withSchema(null);
        }
        Future<BackendConnection> acquired = pool.acquire(poolLogin, client.eventLoop());
        pendingAcquire = acquired;
        acquired.addListener(done -> {
            if (pendingAcquire == acquired) {
                pendingAcquire = null;
            }
            if (phase == Phase.ENDED || routing != command) {
                // The session ended, or a KILL QUERY failed the statement meanwhile.
                if (done.isSuccess()) {
                    pool.releaseTracked((BackendConnection) done.getNow());
                }
                command.frame().release();
                return;
            }
            if (!done.isSuccess()) {
                if (done.cause() instanceof BackendLoginException e && !e.refusedByServer()) {
                    Set<Backend> tried = new HashSet<>(avoid);
                    tried.add(backend);
                    Backend other = (backend.isPrimary() ? runtime.splitRouter().primary(tried)
                            : runtime.splitRouter().replica(tried).or(() -> runtime.splitRouter().primary(tried)))
                            .orElse(null);
                    if (other != null) {
                        acquire(command, other, tried);
                        return;
                    }
                }
                if (PrimaryWait.worthWaiting(done.cause()) && primaryWait.retryLater(client.eventLoop(), () -> retryRouting(command))) {
                    return;
                }
                BackendLoginException e = done.cause() instanceof BackendLoginException failure ? failure : null;
                failCommand(command, e == null ? BackendLoginException.BACKEND_UNAVAILABLE : e.errorCode(),
                        e == null ? "08S01" : e.sqlState(), done.cause().getMessage());
                return;
            }
            onConnection(command, (BackendConnection) done.getNow(), pool);
        });
    }

    private void onConnection(Command command, BackendConnection connection, BackendPool pool) {
        binding.hold(connection, pool);
        connection.listener(this);
        if (lostWrite.pending()) {
            lostWrite.verify(connection, () -> {
                if (stillRouting(command)) {
                    onConnection(command, connection, pool);
                }
            }, unknown -> {
                if (stillRouting(command)) {
                    routing = null;
                    binding.releaseUnlessTied();
                    failCommand(command, Replies.BACKEND_LOST, "08S01", unknown);
                }
            });
            return;
        }
        // A client that cannot take more bytes now would otherwise get the response unthrottled.
        connection.channel().config().setAutoRead(client.isWritable());
        connection.stripSessionState(!Capabilities.has(clientCapabilities, Capabilities.CLIENT_SESSION_TRACK));
        if (!stateInitialised) {
            // The first connection tells what the login left the session at.
            loginValues = connection.loginValues();
            desired.adoptLoginValues(loginValues);
            stateInitialised = true;
        }
        if (command.code() == Commands.COM_RESET_CONNECTION) {
            // Nothing is replayed first: a SET autocommit = 1 there would commit the transaction the
            // reset is to roll back.
            send(command, connection);
            return;
        }
        ConnectionSetup.Outcome outcome = new ConnectionSetup.Outcome() {
            @Override
            public void ready() {
                String signal = carriedError.takeSignal();
                if (signal != null) {
                    connection.sendOwnQuery(signal, row -> { }, raised -> {
                        if (stillRouting(command)) {
                            ready();
                        }
                    });
                } else if (readOnlyTransactionMoves) {
                    beginMovedTransaction(command, connection);
                } else {
                    send(command, connection);
                }
            }

            @Override
            public void replicaTooSlow() {
                binding.drop();
                pool.releaseTracked(connection);
                // Every replica this statement found unfit stays avoided: two replicas that both lack
                // the schema would otherwise send it back and forth for ever.
                Set<Backend> avoid = new HashSet<>(routingAvoids);
                avoid.addAll(readYourWrites.slowReplicas(System.nanoTime()));
                avoid.add(connection.backend());
                route(command, avoid);
            }

            @Override
            public void failed(int code, String sqlState, String message) {
                failCommand(command, code, sqlState, message);
            }
        };
        if (lastInsertId.mustAskBefore(command.route(), binding.holdCount())) {
            askLastInsertId(() -> {
                if (stillRouting(command)) {
                    onConnection(command, connection, pool);
                }
            });
            return;
        }
        String restoreLastInsertId = lastInsertId.restoreBefore(command.route(), connection, binding.holdCount());
        boolean asLeft = command.route().readsLastConnection() && binding.holdCount() == previousStatementHold;
        ConnectionSetup.run(connection, desired, readYourWrites, command.statement(), restoreLastInsertId, asLeft,
                outcome);
    }

    private void send(Command command, BackendConnection connection) {
        if (phase == Phase.ENDED) {
            routing = null;
            command.frame().release();
            return;
        }
        if (routingInterrupted) {
            routing = null;
            failCommand(command, Replies.QUERY_INTERRUPTED, "70100", "Query execution was interrupted");
            return;
        }
        // The write gives one reference away; the session keeps its own until the response ends
        // (a prepare's SQL is read again then).
        ByteBuf frame = command.frame().retain();
        // Observers see the client's frame, with the proxy's statement ids, before the rewrite.
        if (Commands.expectsNoResponse(command.code())) {
            runtime.observer().onNoResponseCommand(this, command.code(), frame);
        } else {
            tokenObserver = runtime.observer();
            boolean hasSql = command.code() == Commands.COM_QUERY || command.code() == Commands.COM_STMT_PREPARE;
            token = tokenObserver.onCommand(this, command.code(), frame, hasSql ? sql : null);
        }
        if (command.statement() != null) {
            frame = ExecuteRewriter.rewrite(frame, command.statement(), connection);
        }
        routing = null;
        current = command;
        currentBackend = connection.backend();
        previousStatementHold = binding.holdCount();
        phase = Phase.IN_FLIGHT;
        if (QueryTimeout.applies(command.code(), runtime.config().timeouts().query())) {
            QueryTimeout.arm(runtime, this, responsesDone, runtime.config().timeouts().query());
        }
        responseStarted = false;
        boolean mayRunAgain = mayRunAgain(command);
        lostWrite.sent(mayRunAgain, connection);
        readOnlyRefusal.sent(mayRunAgain, connection.backend());
        readBacks.statementSent();
        connection.expect(command.code(), this, command.route().scopedVariables());
        connection.write(frame);
        connection.flush();
        if (Commands.expectsNoResponse(command.code())) {
            finish(null);
        }
    }

    // ---- backend side ----

    @Override
    public void onResponseBytes(ByteBuf bytes) {
        if (readOnlyRefusal.hold(bytes, !responseStarted)) {
            return;
        }
        if (!responseStarted && current != null && current.code() == Commands.COM_STMT_PREPARE) {
            statements.rewritePrepareOk(bytes);
        }
        responseStarted = true;
        client.write(bytes, client.voidPromise());
    }

    @Override
    public void onReadComplete() {
        client.flush();
    }

    @Override
    public void onSessionState(List<SessionStateChange> changes) {
        TrackedChanges tracked = TrackedChanges.apply(changes, desired, readYourWrites,
                current != null && current.route().effectsInText(), current != null && current.route().scopedVariables());
        readBacks.reported(tracked, changes);
        if (tracked.schemaReported() != null) {
            binding.pinned(PinReason.NO_SCHEMA, tracked.schemaReported().isEmpty());
        }
        if (tracked.untracked() && current != null && current.route().pins().isEmpty()) {
            // Correctness first: the session stays where that state is.
            binding.pin(PinReason.UNTRACKED_STATE);
        }
    }

    @Override
    public void onResponse(int command, Response response, long latencyNanos) {
        if (readOnlyRefusal.holding()) {
            if (response.isError() && response.errorCode() == ReadOnlyRefusal.OPTION_PREVENTS_STATEMENT) {
                runOnNextPrimary();
                return;
            }
            client.write(readOnlyRefusal.take(), client.voidPromise());
        }
        Object forObserver = token;
        token = null;
        tokenObserver.onResponse(this, forObserver, command, currentBackend,
                command == Commands.COM_STMT_PREPARE ? response.withStatementId(statements.pendingId()) : response,
                latencyNanos);
        readBacks.afterResponse(current == null ? null : current.route(), response, binding.connection(),
                () -> finish(response));
    }

    private void finish(Response response) {
        Command done = current;
        current = null;
        retried = false;
        if (done == null) {
            return;
        }
        responsesDone++;
        if (response != null) {
            afterResponse(done, response);
        }
        done.frame().release();
        releaseHeldCommand();
        BackendConnection bound = binding.connection();
        if (done.code() == Commands.COM_RESET_CONNECTION && response != null && !response.isError() && bound != null) {
            // The reset also turned the connection's session tracking off: put it back first.
            phase = Phase.ROUTING;
            bound.afterReset(restored -> {
                phase = Phase.IDLE;
                binding.releaseIfFree();
                next();
            });
            return;
        }
        if (lastInsertId.unresolvedOn(binding.holdCount()) && binding.free()) {
            phase = Phase.ROUTING;
            askLastInsertId(() -> {
                if (phase != Phase.ENDED) {
                    releaseAndGoOn();
                }
            });
            return;
        }
        releaseAndGoOn();
    }

    private void releaseAndGoOn() {
        phase = Phase.IDLE;
        binding.releaseIfFree();
        if (binding.lingersBriefly()) {
            long hold = binding.holdCount();
            lingering = client.eventLoop().schedule(() -> endLingering(hold), LINGER_MILLIS, TimeUnit.MILLISECONDS);
        }
        if (runtime.shuttingDown() && binding.connection() == null) {
            client.writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            phase = Phase.ENDED;
            return;
        }
        next();
    }

    private void afterResponse(Command command, Response response) {
        boolean prepared = command.code() == Commands.COM_STMT_PREPARE && response.kind() == Response.Kind.PREPARE_OK
                && statements.registerPrepared(command.frame(), command.route(), response, binding.connection()) != null;
        binding.afterResponse(command.code(), command.route(), command.statement(), response, prepared);
        lastInsertId.afterResponse(command.route(), response, binding.connection(), binding.holdCount());
        carriedError.afterResponse(response, currentBackend != null && !currentBackend.isPrimary());
        replicaTransaction.afterStatement(binding.inTransaction() && currentBackend != null && !currentBackend.isPrimary(),
                command.route(), command.route().savepoint() && command.code() == Commands.COM_QUERY
                        ? queryText(command.frame()) : null, response.isError());
        if (!response.isError() && command.route().write() && currentBackend != null && currentBackend.isPrimary()) {
            readYourWrites.wrote(System.nanoTime());
        }
    }

    /** The session stayed idle after a write: the connection it kept in case it asked goes back. */
    private void endLingering(long hold) {
        lingering = null;
        if (phase != Phase.IDLE || !binding.lingersBriefly() || binding.holdCount() != hold) {
            return;
        }
        if (!lastInsertId.unresolvedOn(hold)) {
            binding.releaseLingering();
            return;
        }
        phase = Phase.ROUTING;
        askLastInsertId(() -> {
            if (phase != Phase.ENDED) {
                phase = Phase.IDLE;
                if (binding.lingersBriefly()) {
                    binding.releaseLingering();
                }
                next();
            }
        });
    }

    /**
     * Asks the held connection for LAST_INSERT_ID(), which only it knows after an insert id was
     * reported there ({@link LastInsertId}), then goes on.
     */
    private void askLastInsertId(Runnable then) {
        BackendConnection connection = binding.connection();
        String[] answer = new String[1];
        connection.sendOwnQuery("SELECT LAST_INSERT_ID()", row -> answer[0] = ConnectionSetup.firstColumn(row), done -> {
            lastInsertId.answered(done.isError() ? null : answer[0], connection);
            then.run();
        });
    }

    /** The SQL of a COM_QUERY frame, in the session's character set. */
    private String queryText(ByteBuf frame) {
        int offset = frame.readerIndex() + Packet.HEADER_SIZE + 1;
        return frame.toString(offset, frame.writerIndex() - offset, sql.charset());
    }

    /** No backend can take the statement now: it waits for one (timeouts.primary_wait), then fails. */
    private void waitForBackend(Command command) {
        if (!primaryWait.retryLater(client.eventLoop(), () -> retryRouting(command))) {
            failCommand(command, BackendLoginException.BACKEND_UNAVAILABLE, "08S01", primaryWait.failure());
        }
    }

    private void retryRouting(Command command) {
        if (stillRouting(command)) {
            route(command, readYourWrites.slowReplicas(System.nanoTime()));
        }
    }

    /**
     * Whether a write about to be sent could run again on another connection if it turns out not to
     * have run (refused as read_only, or lost with its connection): a statement of its own (autocommit,
     * no transaction), with nothing of the session's tied to its connection.
     */
    private boolean mayRunAgain(Command command) {
        return command.route().write() && (command.code() == Commands.COM_QUERY
                || command.code() == Commands.COM_STMT_EXECUTE) && !binding.inTransaction() && !binding.pinned()
                && !Boolean.FALSE.equals(autocommit());
    }

    /**
     * The backend taken for the primary refused the write as read_only: it did not run. The health
     * checks take that backend for a replica from now on, and the write goes to the next primary
     * (waiting for one if none is known yet). The client never sees the refusal.
     */
    private void runOnNextPrimary() {
        Command again = current;
        Backend refused = currentBackend;
        current = null;
        token = null;
        readOnlyRefusal.retried();
        runtime.stats().readOnlyRetried();
        runtime.readOnlySeen(refused);
        if (lastInsertId.unresolvedOn(binding.holdCount())) {
            // The write before it, on the same connection, may have made the session's LAST_INSERT_ID().
            phase = Phase.ROUTING;
            routing = again;
            askLastInsertId(() -> {
                if (stillRouting(again)) {
                    binding.releaseUnlessTied();
                    route(again, Set.of(refused));
                }
            });
            return;
        }
        binding.releaseUnlessTied();
        route(again, Set.of(refused));
    }

    private Boolean autocommit() {
        String value = desired.variable("autocommit");
        return value == null ? null : !value.equalsIgnoreCase("OFF") && !value.equals("0");
    }

    @Override
    public void onBackendLost(String reason) {
        log.info("session {}: {}", ClientOrigin.of(client), reason);
        Backend lost = currentBackend;
        binding.drop();
        if (phase == Phase.IN_FLIGHT && !responseStarted && !retried && current != null
                && current.route().target() == Target.REPLICA && !current.route().write() && !binding.inTransaction()
                && !binding.pinned() && lost != null) {
            // An autocommit read whose backend died before answering: once more, elsewhere (or on
            // the primary once it is back, within primary_wait).
            retried = true;
            Command again = current;
            current = null;
            token = null;
            route(again, Set.of(lost));
            return;
        }
        if (phase == Phase.IN_FLIGHT && !responseStarted && current != null && !binding.inTransaction()
                && !binding.pinned() && lostWrite.lost()) {
            // An autocommit write that may or may not have run: it runs again only where it is shown it did not.
            Command again = current;
            current = null;
            token = null;
            route(again, Set.of());
            return;
        }
        if (binding.inTransaction() || binding.pinned()) {
            // The state this session relied on is gone with the connection.
            end(phase == Phase.IN_FLIGHT && !responseStarted ? 1 : 0, Replies.BACKEND_LOST, "08S01", "Lost connection to"
                    + " backend " + (lost == null ? "" : lost.name() + " ") + "during the session: " + reason);
            return;
        }
        switch (phase) {
            case IN_FLIGHT -> {
                if (responseStarted) {
                    end(-1, 0, null, null);
                } else {
                    Command failed = current;
                    current = null;
                    token = null;
                    failCommand(failed, Replies.BACKEND_LOST, "08S01", "Lost connection to backend "
                            + (lost == null ? "" : lost.name() + " ") + "during query: " + reason);
                }
            }
            case ROUTING -> {
                // The connection died while it was being set up: the statement looks elsewhere.
                Command again = routing;
                routing = null;
                if (again != null) {
                    route(again, lost == null ? Set.of() : Set.of(lost));
                }
            }
            default -> {
                // A connection kept in case the next statement asked for it: nothing was lost.
            }
        }
    }

    // ---- the proxy's own answers ----

    @Override
    public void startOver(String user, dev.sluice.protocol.auth.Credential credential, String schema, int charset) {
        binding.releaseForGood();
        statements.closeAll();
        desired.reset(schema);
        lastInsertId.reset();
        carriedError.reset();
        stateInitialised = false;
        login = login.as(user, credential, charset, schema);
        poolLogin = null;
    }

    @Override
    public void changeDone() {
        phase = Phase.IDLE;
        next();
    }

    @Override
    public void changeEnded(int sequenceId, int code, String sqlState, String message) {
        if (sequenceId < 0) {
            phase = Phase.ENDED;
        } else {
            end(sequenceId, code, sqlState, message);
        }
    }

    private void resetConnection(ByteBuf frame) {
        binding.clearPins();
        statements.closeAll();
        lastInsertId.reset();
        carriedError.reset();
        BackendConnection bound = binding.connection();
        desired.reset(desired.schema());
        if (stateInitialised && bound != null) {
            loginValues = bound.loginValues();
            desired.adoptLoginValues(loginValues);
        }
        if (bound != null) {
            route(new Command(Commands.COM_RESET_CONNECTION, frame, RoutedStatement.PRIMARY, null));
            return;
        }
        frame.release();
        replyOk();
    }

    private void replyOk() {
        int status = (binding.inTransaction() ? ServerStatus.IN_TRANS : 0)
                | (Boolean.FALSE.equals(autocommit()) ? 0 : ServerStatus.AUTOCOMMIT);
        client.writeAndFlush(Replies.ok(client.alloc(), 1, status));
        phase = Phase.IDLE;
        next();
    }

    private void replyErr(int code, String sqlState, String message) {
        client.writeAndFlush(Replies.err(client.alloc(), 1, code, sqlState, message));
        phase = Phase.IDLE;
        next();
    }

    /** The command cannot run: ERR to the client, the session goes on. */
    private void failCommand(Command command, int code, String sqlState, String message) {
        command.frame().release();
        current = null;
        replyErr(code, sqlState == null ? "HY000" : sqlState, message);
    }

    /** Ends the session, with a last ERR when a sequence id is given. */
    private void end(int sequenceId, int code, String sqlState, String message) {
        phase = Phase.ENDED;
        if (sequenceId >= 0) {
            client.writeAndFlush(Replies.err(client.alloc(), sequenceId, code, sqlState, message))
                    .addListener(ChannelFutureListener.CLOSE);
        } else {
            client.close();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt == dev.sluice.proxy.ProxyServer.ShutdownEvent.INSTANCE) {
            if (phase == Phase.IDLE) {
                ctx.close();
            }
            return;
        }
        if (evt instanceof IdleStateEvent && phase == Phase.IDLE) {
            end(0, 4031, "HY000", "The client was disconnected by the server because of inactivity (client_idle: "
                    + runtime.config().timeouts().clientIdle() + ")");
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (binding.connection() != null) {
            binding.connection().channel().config().setAutoRead(client.isWritable());
        }
        ctx.fireChannelWritabilityChanged();
    }

    private void cancelPendingAcquire() {
        Future<BackendConnection> pending = pendingAcquire;
        pendingAcquire = null;
        if (pending != null) {
            pending.cancel(false);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        phase = Phase.ENDED;
        changeUser.abandon();
        cancelPendingAcquire();
        runtime.unregisterSession(sessionId, this);
        runtime.observer().onSessionEnd(this);
        queue.releaseAll();
        if (current != null) {
            current.frame().release();
            current = null;
        }
        readOnlyRefusal.release();
        releaseHeldCommand();
        statements.closeAll();
        binding.releaseForGood();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("session {} failed", ClientOrigin.of(client), cause);
        if (phase != Phase.ENDED) {
            end(0, 1047, "08S01", "Malformed packet: " + cause.getMessage());
        }
    }

    public boolean holdsConnection() {
        return binding.connection() != null;
    }

    // ---- the proxy's thread id: CONNECTION_ID() and KILL ----

    /** CONNECTION_ID() is given the id the client was greeted with; a KILL is the proxy's to run. */
    private void withProxyId(int code, ByteBuf frame) {
        // Only the charset and sql_mode are wanted here: routing resets it to the statement as sent.
        sql.reset(frame, desired.variable("character_set_client"), desired.variable("sql_mode"));
        int words = ProxyIds.words(frame);
        ByteBuf statement = ProxyIds.withConnectionId(frame, words, sessionId, sql.charset(), sql.sqlMode());
        KillStatement kill = code == Commands.COM_QUERY ? ProxyIds.kill(statement, words, sql.charset(), sql.sqlMode()) : null;
        if (kill == null) {
            route(new Command(code, statement, SqlRouting.forQuery(statement, desired, runtime.config().routing().rules(), sql), null));
            return;
        }
        statement.release();
        // Not IDLE, so the commands after it wait in the queue.
        phase = Phase.ROUTING;
        client.config().setAutoRead(false);
        KillCommand.run(runtime, this, kill, answer -> {
            if (phase == Phase.ENDED) {
                return;
            }
            if (answer.ok()) {
                replyOk();
            } else if (answer.endsSession()) {
                end(1, answer.errorCode(), answer.sqlState(), answer.message());
            } else {
                replyErr(answer.errorCode(), answer.sqlState(), answer.message());
            }
        });
    }

    @Override
    public io.netty.channel.EventLoop eventLoop() {
        return client.eventLoop();
    }

    @Override
    public LoginRequest login() {
        return login;
    }

    @Override
    public long responsesDone() {
        return responsesDone;
    }

    @Override
    public BackendConnection statementConnection() {
        return phase == Phase.IN_FLIGHT ? binding.connection() : null;
    }

    @Override
    public void interruptPending() {
        if (phase != Phase.ROUTING || routing == null) {
            return;
        }
        if (binding.connection() != null) {
            routingInterrupted = true;
            return;
        }
        // Waiting in a pool's queue: the statement fails now and leaves the queue; acquire() gives back what
        // it may still get and releases the frame.
        routing = null;
        cancelPendingAcquire();
        replyErr(Replies.QUERY_INTERRUPTED, "70100", "Query execution was interrupted");
    }

    @Override
    public void endKilled() {
        if (phase == Phase.ENDED) {
            return;
        }
        boolean awaitingResponse = phase == Phase.IN_FLIGHT ? !responseStarted : phase == Phase.ROUTING && routing != null;
        end(awaitingResponse ? 1 : -1, Replies.CONNECTION_KILLED, "70100", "Connection was killed");
    }
}
