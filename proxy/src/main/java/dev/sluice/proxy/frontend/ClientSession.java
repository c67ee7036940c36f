package dev.sluice.proxy.frontend;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.ProxyRuntime;
import dev.sluice.proxy.backend.Causes;
import dev.sluice.proxy.backend.BackendConnection;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.proxy.backend.LoginRequest;
import dev.sluice.proxy.backend.ResponseListener;
import dev.sluice.proxy.client.ClientOrigin;
import dev.sluice.proxy.command.Replies;
import dev.sluice.proxy.kill.KillCommand;
import dev.sluice.proxy.command.ClientCommand;
import dev.sluice.proxy.command.OwnAnswer;
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
import io.netty.channel.EventLoop;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The command phase of one client session in session mode: each client packet goes to the bound
 * backend connection as it came, each response comes back as the backend sent it. The proxy reads
 * only what it must: the command byte, packet lengths (for max_packet_size and split packets),
 * and, through the backend connection's tracker, where responses end.
 */
public final class ClientSession extends ChannelInboundHandlerAdapter
        implements ResponseListener, BackendConnection.WritabilityAware, KillableSession {

    private static final Logger log = LoggerFactory.getLogger(ClientSession.class);

    private final ProxyRuntime runtime;
    private final Channel client;
    private final BackendConnection backend;
    /** The pool to give the connection back to; null for pass-through sessions, which own theirs. */
    private final BackendPool pool;
    private final long maxPacketSize;

    private final long connectionId;
    private final long sessionId;
    /** Who the session is logged in as: the KILL ownership check reads it, a COM_CHANGE_USER changes it. */
    private String user;
    /** The account a COM_CHANGE_USER in flight asks for, until its response says whether it got it. */
    private String changingTo;
    /** How the backend connection logged in; null in pass-through mode. */
    private final LoginRequest login;
    /**
     * For each pending response in order, the observer of its command and what it asked to get back ({@link #NO_TOKEN}
     * for null): capture may be switched on or off meanwhile, and a token only means something to its own observer.
     */
    private final java.util.ArrayDeque<Object> tokens = new java.util.ArrayDeque<>();
    private static final Object NO_TOKEN = new Object();
    private java.util.Map<Object, Object> attributes;
    /**
     * The SQL of the COM_QUERY or COM_STMT_PREPARE going out, for the observers. Session mode
     * tracks no session variables, so what is known is the handshake's character set and the
     * server's default sql_mode: a later SET NAMES or SET sql_mode is not seen here.
     */
    private final StatementContext sql;

    private boolean continuation;
    private long commandSize;
    private int pending;
    /** Responses that have ended: with {@link #pending}, which command a query timeout is for. */
    private long responsesDone;
    private boolean responseStarted;
    private boolean ended;
    /**
     * The client logged the backend connection in as someone else (COM_CHANGE_USER): it no longer
     * matches its pool's user and must not serve another session.
     */
    private boolean changedUser;
    /**
     * The proxy answers a command itself (a KILL it runs, a command it refuses): commands after it
     * wait in {@link #held}, so responses keep their order; its answer waits in {@link #ownAnswer}
     * for the responses to the commands before it.
     */
    private boolean answering;
    private OwnAnswer ownAnswer;
    /** The transaction and autocommit flags of the last response, for the OK the proxy sends itself. */
    private int status = ServerStatus.AUTOCOMMIT;
    private final java.util.ArrayDeque<ByteBuf> held = new java.util.ArrayDeque<>();
    private ChannelHandlerContext answerCtx;

    public ClientSession(ProxyRuntime runtime, Channel client, BackendConnection backend, BackendPool pool) {
        this(runtime, client, backend, pool, -1, (String) null);
    }

    /** Pass-through: the client saw the backend's own thread id, so KILL and CONNECTION_ID() are left as they are. */
    public ClientSession(ProxyRuntime runtime, Channel client, BackendConnection backend, BackendPool pool,
                         long connectionId, String user) {
        this(runtime, client, backend, pool, connectionId, user, null);
    }

    /**
     * {@code connectionId} is the id the proxy greeted the client with: KILL of it is the proxy's
     * to run (see {@link KillCommand}), and CONNECTION_ID() answers it.
     */
    public ClientSession(ProxyRuntime runtime, Channel client, BackendConnection backend, BackendPool pool,
                         long connectionId, LoginRequest login) {
        this(runtime, client, backend, pool, connectionId, login.user(), login);
    }

    private ClientSession(ProxyRuntime runtime, Channel client, BackendConnection backend, BackendPool pool,
                          long connectionId, String user, LoginRequest login) {
        this.connectionId = connectionId;
        this.sessionId = connectionId >= 0 ? connectionId : runtime.nextConnectionId();
        this.user = user;
        this.login = login;
        this.runtime = runtime;
        this.client = client;
        this.backend = backend;
        this.pool = pool;
        this.maxPacketSize = runtime.config().limits().maxPacketSize();
        this.sql = new StatementContext(backend.identity().charset());
        backend.listener(this);
        backend.backend().activeSessions().incrementAndGet();
        if (connectionId >= 0) {
            runtime.registerSession(connectionId, this);
        } else {
            runtime.registerPassThrough(this);
        }
        runtime.observer().onSessionStart(this);
    }

    @Override
    public int loginCollation() {
        return login == null ? -1 : login.charset();
    }

    @Override
    public EventLoop eventLoop() {
        return client.eventLoop();
    }

    @Override
    public LoginRequest login() {
        return login;
    }

    @Override
    public long sessionId() {
        return sessionId;
    }

    @Override
    public String user() {
        return user;
    }

    @Override
    public java.net.SocketAddress clientAddress() {
        return ClientOrigin.of(client).source();
    }

    @Override
    public String schema() {
        return backend.schema();
    }

    @Override
    public java.util.Set<String> pins() {
        return java.util.Set.of();
    }

    @Override
    public String backendName() {
        return backend.backend().name();
    }

    @Override
    public java.util.Map<Object, Object> attributes() {
        if (attributes == null) {
            attributes = new java.util.HashMap<>();
        }
        return attributes;
    }

    public BackendConnection backend() {
        return backend;
    }

    /** Responses still owed to the client. */
    public int pending() {
        return pending;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        if (ended) {
            frame.release();
            return;
        }
        if (answering) {
            held.addLast(frame);
            return;
        }
        int length = RawPacketDecoder.payloadLength(frame);
        boolean continues = length == Packet.MAX_PAYLOAD;
        if (continuation) {
            continuation = continues;
            commandSize += length;
            if (commandSize > maxPacketSize) {
                frame.release();
                tooLarge(ctx);
                return;
            }
            backend.write(frame);
            return;
        }
        continuation = continues;
        if (backend.expectsClientData()) {
            backend.writeClientData(frame, length);
            return;
        }
        if (length == 0) {
            frame.release();
            reply(ctx, Replies.UNKNOWN_COMMAND, "08S01", ClientCommand.EMPTY);
            return;
        }
        commandSize = length;
        if (commandSize > maxPacketSize) {
            frame.release();
            tooLarge(ctx);
            return;
        }
        int command = frame.getUnsignedByte(frame.readerIndex() + Packet.HEADER_SIZE);
        switch (ClientCommand.of(command)) {
            case QUIT -> {
                frame.release();
                quit(ctx);
            }
            case REFUSED -> {
                frame.release();
                answerItself(ctx, OwnAnswer.error(Replies.UNKNOWN_COMMAND, "08S01", ClientCommand.refusal(command)));
            }
            case SQL -> {
                if (connectionId >= 0) {
                    withProxyId(ctx, frame, command);
                } else {
                    forward(frame, command);
                }
            }
            case CHANGE_USER -> changeUser(ctx, frame);
            default -> forward(frame, command);
        }
    }

    /**
     * With the proxy's own accounts (users:), the account a client changes to must be one of them,
     * as at login: the backend would take any account it has. The backend still checks the password.
     */
    private void changeUser(ChannelHandlerContext ctx, ByteBuf frame) {
        String name = changeUserName(frame);
        if (login != null && (name == null || runtime.user(name).isEmpty())) {
            frame.release();
            answerItself(ctx, OwnAnswer.error(Replies.ACCESS_DENIED, "28000", "Access denied for user '" + name + "'@'"
                    + ClientOrigin.of(ctx.channel()).host() + "' (using password: YES)"));
            return;
        }
        changingTo = name;
        forward(frame, Commands.COM_CHANGE_USER);
    }

    /** The user name a COM_CHANGE_USER frame asks for (its first field), or null when it has none. */
    private static String changeUserName(ByteBuf frame) {
        int from = frame.readerIndex() + Packet.HEADER_SIZE + 1;
        int nul = frame.indexOf(from, frame.writerIndex(), (byte) 0);
        return nul < 0 ? null : frame.toString(from, nul - from, java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * The client knows this session by the proxy's id: CONNECTION_ID() is given it, and a KILL is
     * the proxy's to run. The text is read as {@link #sql} reads it: in the handshake's character
     * set, with the default sql_mode.
     */
    private void withProxyId(ChannelHandlerContext ctx, ByteBuf frame, int command) {
        int words = ProxyIds.words(frame);
        ByteBuf statement = ProxyIds.withConnectionId(frame, words, connectionId, sql.charset(), sql.sqlMode());
        KillStatement kill = command == Commands.COM_QUERY
                ? ProxyIds.kill(statement, words, sql.charset(), sql.sqlMode()) : null;
        if (kill == null) {
            forward(statement, command);
            return;
        }
        statement.release();
        answerLater(ctx);
        KillCommand.run(runtime, this, kill, this::answer);
    }

    /** The proxy answers this command, once the responses to the commands before it are out. */
    private void answerItself(ChannelHandlerContext ctx, OwnAnswer answer) {
        answerLater(ctx);
        answer(answer);
    }

    /** The proxy will answer the command just read: the ones after it wait in {@link #held}. */
    private void answerLater(ChannelHandlerContext ctx) {
        answering = true;
        answerCtx = ctx;
        client.config().setAutoRead(false);
    }

    private void answer(OwnAnswer answer) {
        ownAnswer = answer;
        sendOwnAnswer();
    }

    /** Sends the proxy's own answer once the responses to the commands before it are out, then goes on with the next. */
    private void sendOwnAnswer() {
        if (ownAnswer == null || pending > 0 || ended) {
            return;
        }
        OwnAnswer answer = ownAnswer;
        ownAnswer = null;
        answering = false;
        if (answer.endsSession()) {
            reply(answerCtx, answer.errorCode(), answer.sqlState(), answer.message());
            return;
        }
        client.writeAndFlush(answer.ok() ? Replies.ok(client.alloc(), 1, status)
                : Replies.err(client.alloc(), 1, answer.errorCode(), answer.sqlState(), answer.message()));
        while (!answering && !ended && !held.isEmpty()) {
            channelRead(answerCtx, held.pollFirst());
        }
        backend.flush();
        if (!answering && !ended) {
            client.config().setAutoRead(true);
        }
    }

    @Override
    public long responsesDone() {
        return responsesDone;
    }

    @Override
    public BackendConnection statementConnection() {
        return ended || pending == 0 ? null : backend;
    }

    @Override
    public void interruptPending() {
        // Statements go to the backend connection as they come: none waits anywhere else.
    }

    @Override
    public void endKilled() {
        if (ended) {
            return;
        }
        boolean reusable = pending == 0 && !continuation;
        ended = true;
        if (pending > 0 && !responseStarted) {
            client.writeAndFlush(Replies.err(client.alloc(), 1, Replies.CONNECTION_KILLED, "70100",
                    "Connection was killed")).addListener(ChannelFutureListener.CLOSE);
        } else {
            client.close();
        }
        releaseBackend(reusable);
    }

    private void forward(ByteBuf frame, int command) {
        if (command == Commands.COM_CHANGE_USER) {
            changedUser = true;
        }
        if (!Commands.expectsNoResponse(command)) {
            if (QueryTimeout.applies(command, runtime.config().timeouts().query())) {
                QueryTimeout.arm(runtime, this, responsesDone + pending, runtime.config().timeouts().query());
            }
            pending++;
            StatementObserver observer = runtime.observer();
            boolean hasSql = command == Commands.COM_QUERY || command == Commands.COM_STMT_PREPARE;
            Object token = observer.onCommand(this, command, frame, hasSql ? sql.reset(frame) : null);
            tokens.addLast(observer);
            tokens.addLast(token == null ? NO_TOKEN : token);
        } else {
            runtime.observer().onNoResponseCommand(this, command, frame);
        }
        backend.expect(command, this);
        backend.write(frame);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        backend.flush();
    }

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
        responsesDone++;
        StatementObserver observer = (StatementObserver) tokens.pollFirst();
        Object token = tokens.pollFirst();
        observer.onResponse(this, token == NO_TOKEN ? null : token, command, backend.backend(), response, latencyNanos);
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
        if (ownAnswer != null) {
            sendOwnAnswer();
        }
        if (pending == 0 && runtime.shuttingDown()) {
            client.writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void onBackendLost(String reason) {
        if (ended) {
            return;
        }
        log.info("session {}: {}", ClientOrigin.of(client), reason);
        ended = true;
        if (pending > 0 && !responseStarted) {
            // A response never began, so an ERR with sequence id 1 is exactly what the client expects.
            client.writeAndFlush(Replies.err(client.alloc(), 1, Replies.BACKEND_LOST, "08S01",
                    "Lost connection to backend " + backend.backend().name() + " during query: " + reason))
                    .addListener(ChannelFutureListener.CLOSE);
        } else {
            client.close();
        }
        releaseBackend(false);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        // A slow client must not make the proxy buffer a result set: stop reading the backend.
        backend.channel().config().setAutoRead(client.isWritable());
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void backendWritabilityChanged(boolean writable) {
        client.config().setAutoRead(writable);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt == dev.sluice.proxy.ProxyServer.ShutdownEvent.INSTANCE) {
            // Idle sessions go at once; busy ones when their last response is out (onResponse).
            if (pending == 0) {
                ctx.close();
            }
            return;
        }
        if (evt instanceof IdleStateEvent && pending == 0 && !ended) {
            reply(ctx, 0, Replies.IDLE_TIMEOUT, "HY000",
                    "The client was disconnected by the server because of inactivity (client_idle: "
                            + runtime.config().timeouts().clientIdle() + ")");
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!ended) {
            ended = true;
            releaseBackend(pending == 0 && !continuation);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        runtime.stats().protocolError();
        log.debug("session {} failed", ClientOrigin.of(client), cause);
        if (!ended && cause instanceof io.netty.handler.codec.TooLongFrameException) {
            tooLarge(ctx);
        } else if (!ended) {
            reply(ctx, 0, Replies.UNKNOWN_COMMAND, "08S01", "Malformed packet: " + Causes.rootMessage(cause));
        }
    }

    /** Ends the session after sending ERR as the response to the client's last command. */
    private void reply(ChannelHandlerContext ctx, int code, String sqlState, String message) {
        reply(ctx, 1, code, sqlState, message);
    }

    private void reply(ChannelHandlerContext ctx, int sequenceId, int code, String sqlState, String message) {
        boolean reusable = pending == 0 && !continuation;
        ended = true;
        LingeringClose.afterSending(ctx.channel(), Replies.err(ctx.alloc(), sequenceId, code, sqlState, message));
        releaseBackend(reusable);
    }

    private void tooLarge(ChannelHandlerContext ctx) {
        // Part of the command already reached the backend, so its connection cannot be reused.
        continuation = true;
        reply(ctx, Replies.PACKET_TOO_LARGE, "08S01", ClientCommand.tooLarge(maxPacketSize));
    }

    private void quit(ChannelHandlerContext ctx) {
        boolean reusable = pending == 0;
        ended = true;
        ctx.close();
        releaseBackend(reusable);
    }

    private void releaseBackend(boolean reusable) {
        if (connectionId >= 0) {
            runtime.unregisterSession(connectionId, this);
        } else {
            runtime.unregisterPassThrough(this);
        }
        held.forEach(ReferenceCountUtil::release);
        held.clear();
        runtime.observer().onSessionEnd(this);
        if (backend.listener() == this) {
            backend.listener(null);
        }
        backend.backend().activeSessions().decrementAndGet();
        backend.channel().config().setAutoRead(true);
        if (pool != null && reusable && !changedUser) {
            pool.release(backend);
        } else if (pool != null) {
            pool.discard(backend);
        } else {
            backend.quit();
        }
    }
}
