package dev.sluice.proxy.session;

import dev.sluice.config.SluiceConfig;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.backend.BackendConnection;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.proxy.backend.LoginRequest;
import dev.sluice.proxy.backend.RelayedConnection;
import dev.sluice.proxy.backend.ResponseListener;
import dev.sluice.proxy.client.ClientOrigin;
import dev.sluice.proxy.command.ClientCommand;
import dev.sluice.proxy.command.OwnAnswer;
import dev.sluice.proxy.command.Replies;
import dev.sluice.proxy.observe.StatementContext;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Session mode: every command goes to the one backend connection the session got at login, as it
 * came, as soon as it comes (pipelined commands included), and each response comes back as the
 * backend sent it. The proxy reads only what it must: the command byte, packet lengths, and,
 * through the connection's tracker, where responses end.
 */
public final class RelayPath implements StatementPath, ResponseListener, BackendConnection.WritabilityAware {

    private static final Logger log = LoggerFactory.getLogger(RelayPath.class);
    /** Contexts kept for reuse: a pipelining client has a few commands out at most at a time. */
    private static final int SPARE_CONTEXTS = 4;

    private final BackendConnection backend;
    /** The pool to give the connection back to; null for pass-through sessions, which own theirs. */
    private final BackendPool pool;
    /** How the backend connection logged in; null in pass-through mode. */
    private final LoginRequest login;
    /**
     * How the session's SQL is read. Session mode tracks no session variables, so what is known is
     * the handshake's character set and the server's default sql_mode: a later SET NAMES or SET
     * sql_mode is not seen here.
     */
    private StatementContext sql;
    /**
     * The contexts of the commands whose responses are still to come, in order. Both deques start
     * with room for two and grow: the default 16 slots cost every session 56 bytes each.
     */
    private final ArrayDeque<StatementContext> inFlight = new ArrayDeque<>(2);
    private final ArrayDeque<StatementContext> spare = new ArrayDeque<>(2);
    private CommandSession session;
    private Channel client;
    /** Who the session is logged in as: the KILL ownership check reads it, a COM_CHANGE_USER changes it. */
    private String user;
    /** The account a COM_CHANGE_USER in flight asks for, until its response says whether it got it. */
    private String changingTo;
    /**
     * The client logged the backend connection in as someone else (COM_CHANGE_USER): it no longer
     * matches its pool's user and must not serve another session.
     */
    private boolean changedUser;
    /**
     * The client switched multi-statements with COM_SET_OPTION, which COM_RESET_CONNECTION leaves
     * as it is: the connection no longer matches what its pool key says of it.
     */
    private boolean setOption;
    /** A command may have selected or dropped a schema (see {@link SchemaWords}). */
    private boolean schemaMayHaveChanged;
    private int pending;
    private boolean responseStarted;
    /** The transaction and autocommit flags of the last response, for the OK the proxy sends itself. */
    private int status = ServerStatus.AUTOCOMMIT;

    /** With the proxy's own accounts: the connection came from {@code pool}, logged in as {@code login}. */
    public static RelayPath pooled(BackendConnection backend, BackendPool pool, LoginRequest login) {
        return new RelayPath(backend, pool, login, login.user());
    }

    /** Pass-through: the client logged the connection in itself, as {@code user}; it closes with the session. */
    public static RelayPath passThrough(BackendConnection backend, String user) {
        return new RelayPath(backend, null, null, user);
    }

    private RelayPath(BackendConnection backend, BackendPool pool, LoginRequest login, String user) {
        this.backend = backend;
        this.pool = pool;
        this.login = login;
        this.user = user;
    }

    @Override
    public void attach(CommandSession session) {
        this.session = session;
        this.client = session.client();
        this.sql = new StatementContext(session.services().sqlReaders(), backend.identity().charset());
        backend.listener(this);
        backend.backend().activeSessions().incrementAndGet();
    }

    @Override
    public boolean streamsLargeCommands() {
        return true;
    }

    @Override
    public boolean busy() {
        return false;
    }

    @Override
    public int pending() {
        return pending;
    }

    @Override
    public boolean takesClientData(ByteBuf frame) {
        if (!backend.expectsClientData()) {
            return false;
        }
        backend.writeClientData(frame, RawPacketDecoder.payloadLength(frame));
        return true;
    }

    @Override
    public StatementContext sql(ByteBuf frame) {
        return sql.reset(frame);
    }

    @Override
    public void statement(int code, ByteBuf frame, StatementContext sql) {
        forward(frame, code);
    }

    @Override
    public void command(ClientCommand kind, int code, ByteBuf frame) {
        if (kind == ClientCommand.CHANGE_USER) {
            changeUser(frame);
        } else {
            forward(frame, code);
        }
    }

    @Override
    public void continuation(ByteBuf frame) {
        backend.write(frame);
    }

    /**
     * With the proxy's own accounts (users:), the account a client changes to must be one of them,
     * as at login: the backend would take any account it has. The backend still checks the password.
     */
    private void changeUser(ByteBuf frame) {
        String name = changeUserName(frame);
        SluiceConfig config = session.services().config().get();
        if (login != null && (name == null || config.user(name).isEmpty())) {
            frame.release();
            session.answer(OwnAnswer.error(Replies.ACCESS_DENIED, "28000", "Access denied for user '" + name + "'@'"
                    + ClientOrigin.of(client).host() + "' (using password: YES)"));
            return;
        }
        changingTo = name;
        changedUser = true;
        forward(frame, Commands.COM_CHANGE_USER);
    }

    /** The user name a COM_CHANGE_USER frame asks for (its first field), or null when it has none. */
    private static String changeUserName(ByteBuf frame) {
        int from = frame.readerIndex() + Packet.HEADER_SIZE + 1;
        int nul = frame.indexOf(from, frame.writerIndex(), (byte) 0);
        return nul < 0 ? null : frame.toString(from, nul - from, StandardCharsets.UTF_8);
    }

    private void forward(ByteBuf frame, int command) {
        setOption |= command == Commands.COM_SET_OPTION;
        // Only a pooled connection serves another session; a pass-through one closes with this one.
        schemaMayHaveChanged = schemaMayHaveChanged || pool != null && SchemaWords.mayChangeSchema(command, frame);
        StatementContext statement = null;
        if (!Commands.expectsNoResponse(command)) {
            session.armQueryTimeout(command);
            pending++;
            statement = spare.isEmpty()
                    ? new StatementContext(session.services().sqlReaders(), backend.identity().charset()) : spare.pollFirst();
            session.services().observers().current().onCommand(session.killable(), statement.reset(frame));
            inFlight.addLast(statement);
        } else {
            session.services().observers().current().onNoResponseCommand(session.killable(), command, frame);
        }
        backend.expect(command, this, null, statement == null ? null : statement.answer());
        backend.write(frame);
    }

    @Override
    public void flush() {
        backend.flush();
    }

    @Override
    public void clientWritable(boolean writable) {
        backend.channel().config().setAutoRead(writable);
    }

    @Override
    public void backendWritabilityChanged(boolean writable) {
        session.backendWritable(writable);
    }

    @Override
    public int serverStatus() {
        return status;
    }

    @Override
    public boolean awaitingResponse() {
        return pending > 0 && !responseStarted;
    }

    @Override
    public boolean canEndAtShutdown() {
        return pending == 0;
    }

    // ---- the backend's side ----

    @Override
    public void onResponseBytes(ByteBuf bytes) {
        responseStarted = true;
        client.write(bytes, client.voidPromise());
    }

    @Override
    public void onReadComplete() {
        client.flush();
    }

    @Override
    public void onResponse(int command, Response response, long latencyNanos) {
        pending--;
        StatementContext statement = inFlight.pollFirst();
        session.services().observers().current().onResponse(session.killable(), statement, backend.backend(), response,
                latencyNanos);
        if (spare.size() < SPARE_CONTEXTS) {
            spare.addLast(statement);
        }
        responseStarted = false;
        if (command == Commands.COM_CHANGE_USER) {
            if (!response.isError() && changingTo != null) {
                user = changingTo;
            }
            changingTo = null;
        }
        if (response.statusKnown()) {
            status = response.status() & (ServerStatus.IN_TRANS | ServerStatus.AUTOCOMMIT);
        }
        session.responseEnded();
        session.ready();
    }

    @Override
    public void onBackendLost(String reason) {
        if (session.ended()) {
            return;
        }
        log.info("session {}: {}", ClientOrigin.of(client), reason);
        // A response never began, so an ERR with sequence id 1 is exactly what the client expects.
        session.end(awaitingResponse() ? 1 : -1, Replies.BACKEND_LOST, "08S01",
                "Lost connection to backend " + backend.backend().name() + " during query: " + reason);
    }

    @Override
    public void end(boolean reusable) {
        if (backend.listener() == this) {
            backend.listener(null);
        }
        backend.backend().activeSessions().decrementAndGet();
        backend.channel().config().setAutoRead(true);
        if (pool != null && reusable && !changedUser && !setOption && backend.isUsable()
                && session.services().config().get().routing().reuseBackendConnections()) {
            if (schemaMayHaveChanged && backend instanceof RelayedConnection relayed) {
                relayed.schemaMayHaveChanged();
            }
            pool.release(backend);
        } else if (pool != null) {
            pool.discard(backend);
        } else {
            backend.quit();
        }
    }

    // ---- what the session tells about itself ----

    @Override
    public LoginRequest login() {
        return login;
    }

    @Override
    public int loginCollation() {
        return login == null ? -1 : login.charset();
    }

    @Override
    public String user() {
        return user;
    }

    @Override
    public String schema() {
        return backend.schema();
    }

    @Override
    public Set<String> pins() {
        return Set.of();
    }

    @Override
    public String backendName() {
        return backend.backend().name();
    }

    @Override
    public BackendConnection statementConnection() {
        return pending == 0 ? null : backend;
    }

    @Override
    public void interruptPending() {
        // Statements go to the backend connection as they come: none waits anywhere else.
    }
}
