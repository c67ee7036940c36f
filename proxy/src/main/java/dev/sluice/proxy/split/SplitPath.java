package dev.sluice.proxy.split;

import dev.sluice.config.RoutingConfig;
import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.auth.Credential;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.proxy.auth.ClientAuth;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendConnection;
import dev.sluice.proxy.backend.LoginRequest;
import dev.sluice.proxy.backend.TrackedConnection;
import dev.sluice.proxy.command.ClientCommand;
import dev.sluice.proxy.command.OwnAnswer;
import dev.sluice.proxy.command.Replies;
import dev.sluice.proxy.observe.StatementContext;
import dev.sluice.proxy.session.CommandSession;
import dev.sluice.proxy.session.SessionServices;
import dev.sluice.proxy.session.StatementPath;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Split mode: each statement is routed on its own, reads outside transactions to a replica,
 * everything else to the primary ({@link ConnectionFinder}). Between statements the session holds
 * no backend connection unless it must (a transaction, or state pinned to the connection), so
 * thousands of clients share a few backend connections. Before a statement runs on a connection,
 * the session's state (schema, session variables) is replayed there, and its prepared statements
 * are prepared there on first use. One command at a time: the session queues what comes meanwhile.
 */
public final class SplitPath implements StatementPath, ChangeUserFlow.Session, ConnectionFinder.Owner {

    /** Where the session is with its current command. */
    enum Phase { IDLE, ROUTING, IN_FLIGHT, CHANGING_USER }

    private final LoginRequest login;
    private final String schema;
    private SplitState state;
    private final SplitBackends backends;
    private final ClientAuth auth;
    private final RoutingConfig routingConfig;
    private final long clientCapabilities;
    private final byte[] seed;
    private final boolean secure;
    private CommandSession session;
    private Channel client;
    private ConnectionFinder finder;
    private ChangeUserFlow changeUser;
    private SplitResponses responses;
    private Phase phase = Phase.IDLE;

    /**
     * @param seed   the scramble of the greeting, which a COM_CHANGE_USER's password answers
     * @param secure the client talks TLS
     */
    public SplitPath(SplitBackends backends, ClientAuth auth, RoutingConfig routing, long clientCapabilities,
                     LoginRequest login, String schema, byte[] seed, boolean secure) {
        this.backends = backends;
        this.auth = auth;
        this.routingConfig = routing;
        this.clientCapabilities = clientCapabilities;
        this.seed = seed.clone();
        this.secure = secure;
        this.login = login;
        this.schema = schema;
    }

    @Override
    public void attach(CommandSession session) {
        this.session = session;
        this.client = session.client();
        SessionServices services = session.services();
        this.state = new SplitState(login, schema, routingConfig, backends.acknowledgedWrites(), services.sqlReaders(),
                reason -> services.observers().current().onPinned(session.killable(), reason.label()),
                services.bufferedMemory(), services.stats());
        StatementRetries retries = new StatementRetries(new PrimaryWait(services.config(), services.stats(), backends),
                new LostWrite(backends, services.stats()));
        this.finder = new ConnectionFinder(state, backends, retries, client.eventLoop(), this);
        this.changeUser = new ChangeUserFlow(auth, backends, client, clientCapabilities, seed, secure, this);
        this.responses = new SplitResponses(this, state, retries, backends.primaries(), session);
    }

    @Override
    public boolean streamsLargeCommands() {
        return false;
    }

    @Override
    public boolean busy() {
        return phase != Phase.IDLE;
    }

    @Override
    public int pending() {
        return phase == Phase.IN_FLIGHT ? 1 : 0;
    }

    @Override
    public boolean takesClientData(ByteBuf frame) {
        TrackedConnection bound = state.binding.connection();
        if (phase == Phase.IN_FLIGHT && bound != null && bound.expectsClientData()) {
            bound.writeClientData(frame, RawPacketDecoder.payloadLength(frame));
            return true;
        }
        if (phase == Phase.CHANGING_USER) {
            changeUser.read(frame);
            return true;
        }
        return false;
    }

    @Override
    public StatementContext sql(ByteBuf frame) {
        // A command came: a connection kept after a write stays for it, or goes as it decides.
        responses.cancelLingering();
        // Only the charset and sql_mode are wanted here: routing resets it to the statement as sent.
        return state.sqlOf(frame);
    }

    @Override
    public void statement(int code, ByteBuf frame, StatementContext sql) {
        if (code == Commands.COM_STMT_PREPARE && state.statements.full()) {
            frame.release();
            reply(OwnAnswer.error(Replies.TOO_MANY_PREPARED, "42000", "Can't create more than max_prepared_stmt_count"
                    + " statements (current value: " + SplitStatements.MAX_PER_SESSION + ")"));
            return;
        }
        route(new SplitCommand(code, frame, SqlRouting.forQuery(frame, state.desired, routingConfig.rules(), sql), null));
    }

    @Override
    public void command(ClientCommand kind, int code, ByteBuf frame) {
        responses.cancelLingering();
        switch (kind) {
            case PING -> {
                frame.release();
                reply(OwnAnswer.OK);
            }
            case PREPARED_STATEMENT -> PreparedCommands.dispatch(code, frame, state, this);
            case STATEMENT_CLOSE -> {
                ProxyStatement closed = state.statements.close(frame);
                if (closed != null) {
                    state.binding.statementClosed(closed);
                }
                frame.release();
            }
            case RESET_CONNECTION -> resetConnection(frame);
            case CHANGE_USER -> {
                phase = Phase.CHANGING_USER;
                changeUser.start(frame);
            }
            case SET_OPTION -> {
                state.binding.pin(PinReason.SET_OPTION);
                route(new SplitCommand(code, frame, RoutedStatement.PRIMARY, null));
            }
            default -> route(new SplitCommand(code, frame, RoutedStatement.PRIMARY, null));
        }
    }

    @Override
    public void continuation(ByteBuf frame) {
        throw new IllegalStateException("split mode holds a large command until it is whole");
    }

    void route(SplitCommand command) {
        phase = Phase.ROUTING;
        finder.route(command);
    }

    // ---- sending ----

    @Override
    public void bind(TrackedConnection connection) {
        connection.listener(responses);
        // A client that cannot take more bytes now would otherwise get the response unthrottled.
        connection.channel().config().setAutoRead(client.isWritable());
        connection.stripSessionState(!Capabilities.has(clientCapabilities, Capabilities.CLIENT_SESSION_TRACK));
    }

    @Override
    public void send(SplitCommand command, TrackedConnection connection) {
        responses.send(command, connection);
    }

    @Override
    public void askLastInsertId(Runnable then) {
        responses.askLastInsertId(then);
    }

    Phase phase() {
        return phase;
    }

    void phase(Phase next) {
        phase = next;
    }

    /**
     * The command sent did not run, or may run again: once more, not on the backends in {@code avoid}
     * (an autocommit read whose backend died before answering, a write lost with its connection).
     */
    void retry(SplitCommand command, Set<Backend> avoid) {
        phase = Phase.ROUTING;
        finder.retry(command, avoid);
    }

    /** A write refused as read_only by the backend taken for the primary runs on the next one. */
    void runOnNextPrimary(SplitCommand command, Backend refused, boolean askLastInsertId) {
        phase = Phase.ROUTING;
        finder.runOnNextPrimary(command, refused, askLastInsertId);
    }

    /** The connection a command was being set up on was lost: it looks elsewhere. */
    void lostWhileRouting(Backend lost) {
        finder.lost(lost);
    }

    // ---- the proxy's own answers ----

    /** The command is answered by the proxy: the session goes on with the next. */
    void reply(OwnAnswer answer) {
        phase = Phase.IDLE;
        session.answer(answer);
    }

    @Override
    public void fail(SplitCommand command, int code, String sqlState, String message) {
        command.frame().release();
        reply(OwnAnswer.error(code, sqlState == null ? "HY000" : sqlState, message));
    }

    @Override
    public void abandon(SplitCommand command, String message) {
        command.frame().release();
        session.end(1, Replies.BACKEND_LOST, "08S01", message);
    }

    private void resetConnection(ByteBuf frame) {
        Binding binding = state.binding;
        binding.clearPins();
        state.statements.closeAll();
        state.lastInsertId.reset();
        state.carriedError.reset();
        // The reset rolls back the transaction; one lost before it is not run again.
        state.transactionLog.clear();
        TrackedConnection bound = binding.connection();
        state.desired.reset(state.desired.schema());
        if (state.stateInitialised && bound != null) {
            state.loginValues = bound.loginValues();
            state.desired.adoptLoginValues(state.loginValues);
        }
        if (bound != null) {
            route(new SplitCommand(Commands.COM_RESET_CONNECTION, frame, RoutedStatement.PRIMARY, null));
            return;
        }
        frame.release();
        reply(OwnAnswer.OK);
    }

    @Override
    public int serverStatus() {
        boolean inTransaction = state.binding.inTransaction() || state.transactionLog.replayPending();
        return (inTransaction ? ServerStatus.IN_TRANS : 0)
                | (Boolean.FALSE.equals(state.autocommit()) ? 0 : ServerStatus.AUTOCOMMIT);
    }

    @Override
    public LoginRequest login() {
        return state.login();
    }

    @Override
    public String schema() {
        return state.desired.schema();
    }

    @Override
    public int loginCollation() {
        return state.login().charset();
    }

    @Override
    public Map<String, String> changedVariables() {
        Map<String, String> changed = new TreeMap<>();
        state.desired.variables().forEach((name, value) -> {
            if (state.loginValues == null || !value.equals(state.loginValues.variable(name))) {
                changed.put(name, value);
            }
        });
        return changed;
    }

    @Override
    public void startOver(String user, Credential credential, String schema, int charset, boolean refused,
                          Runnable then) {
        state.startOver(user, credential, schema, charset, refused, () -> {
            if (!session.ended()) {
                then.run();
            }
        });
    }

    @Override
    public void changeDone() {
        phase = Phase.IDLE;
        session.ready();
    }

    @Override
    public void changeEnded(int sequenceId, int code, String sqlState, String message) {
        session.end(sequenceId, code, sqlState, message);
    }

    // ---- the session's end, and what it tells about itself ----

    @Override
    public void flush() {
        if (state.binding.connection() != null) {
            state.binding.connection().flush();
        }
    }

    @Override
    public void clientWritable(boolean writable) {
        if (state.binding.connection() != null) {
            state.binding.connection().channel().config().setAutoRead(writable);
        }
    }

    @Override
    public boolean awaitingResponse() {
        return phase == Phase.IN_FLIGHT ? !responses.responseStarted() : phase == Phase.ROUTING && finder.routing() != null;
    }

    @Override
    public boolean canEndAtShutdown() {
        return state.binding.connection() == null;
    }

    @Override
    public boolean ended() {
        return session.ended();
    }

    @Override
    public void end(boolean reusable) {
        changeUser.abandon();
        finder.cancelAcquire();
        responses.end();
        state.statements.closeAll();
        state.binding.releaseForGood();
        state.transactionLog.clear();
    }

    @Override
    public String user() {
        return state.login().user();
    }

    @Override
    public Set<String> pins() {
        return state.binding.pinLabels();
    }

    @Override
    public String backendName() {
        return state.binding.connection() == null ? null : state.binding.connection().backend().name();
    }

    @Override
    public BackendConnection statementConnection() {
        return phase == Phase.IN_FLIGHT ? state.binding.connection() : null;
    }

    @Override
    public void interruptPending() {
        if (phase == Phase.ROUTING && finder.interrupt()) {
            reply(OwnAnswer.error(Replies.QUERY_INTERRUPTED, "70100", "Query execution was interrupted"));
        }
    }
}
