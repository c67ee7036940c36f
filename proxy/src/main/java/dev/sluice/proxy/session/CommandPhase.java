package dev.sluice.proxy.session;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.frame.Packet;
import dev.sluice.proxy.backend.Causes;
import dev.sluice.proxy.client.ClientOrigin;
import dev.sluice.proxy.command.ClientCommand;
import dev.sluice.proxy.command.OwnAnswer;
import dev.sluice.proxy.command.Replies;
import dev.sluice.proxy.kill.KillCommand;
import dev.sluice.proxy.kill.KillableSession;
import dev.sluice.proxy.kill.ProxyIds;
import dev.sluice.proxy.kill.QueryTimeout;
import dev.sluice.proxy.observe.StatementContext;
import dev.sluice.proxy.sql.KillStatement;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The command phase of one client session, the same in both routing modes: it reads the client's
 * packets, checks their size, answers QUIT, the commands the proxy refuses and KILL itself,
 * gives CONNECTION_ID() the session's own id, ends idle sessions and, at shutdown, busy ones once
 * they are idle. Everything else goes to the session's {@link StatementPath}, which is where the
 * modes differ: how a statement finds its backend. Answers keep the client's order: a command the
 * proxy answers itself waits for the responses to the commands before it, and the commands after
 * it wait in a queue (the client is not read meanwhile).
 */
public final class CommandPhase extends ChannelInboundHandlerAdapter implements CommandSession {

    private static final Logger log = LoggerFactory.getLogger(CommandPhase.class);

    private final SessionServices services;
    private final Channel client;
    private final StatementPath path;
    /** The id the proxy greeted the client with, or -1 in pass-through mode (the backend's own id then stands). */
    private final long connectionId;
    private final SessionView view;
    private final long maxPacketSize;
    private final PendingCommands queue;
    private final CommandFrames frames;
    private final ClientReads reads;
    private IdleClientWatch idleWatch;

    private boolean ended;
    private boolean finished;
    /** The proxy answers a command itself, after the responses before it: commands after it wait. */
    private OwnAnswer ownAnswer;
    private boolean answering;
    /** Commands whose response has ended (a query timeout's way to tell one statement from the next). */
    private long responsesDone;

    /**
     * @param connectionId the id the client was greeted with: KILL of it is the proxy's to run, and
     *                     CONNECTION_ID() answers it; -1 in pass-through mode, where both are left as
     *                     they are
     */
    public CommandPhase(SessionServices services, Channel client, long connectionId, StatementPath path) {
        this.services = services;
        this.client = client;
        this.path = path;
        this.connectionId = connectionId;
        this.view = new SessionView(this, path, connectionId >= 0 ? connectionId : services.kills().sessions().nextId());
        this.maxPacketSize = services.config().get().limits().maxPacketSize();
        this.reads = new ClientReads(client);
        this.queue = new PendingCommands(services.bufferedMemory());
        this.frames = new CommandFrames(queue, maxPacketSize, (code, message) -> end(1, code, "08S01", message));
        path.attach(this);
        if (connectionId >= 0) {
            services.kills().sessions().register(connectionId, view);
        } else {
            services.kills().sessions().registerPassThrough(view);
        }
        services.observers().current().onSessionStart(view);
    }

    // ---- reading the client ----

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        idleWatch = IdleClientWatch.start(ctx.executor(), services.config().get().timeouts().clientIdle(), this::endIfIdle);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        if (ended) {
            frame.release();
            return;
        }
        if (path.streamsLargeCommands()) {
            if (answering || !queue.isEmpty()) {
                queue.add(frame);
                reads.pause(ClientReads.QUEUED);
            } else {
                frames.relay(frame, path, this::dispatch);
            }
            return;
        }
        if (path.takesClientData(frame)) {
            return;
        }
        queue.add(frame);
        if (answering || path.busy()) {
            reads.pause(ClientReads.QUEUED);
        } else {
            next();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        idleWatch.read();
        path.flush();
    }

    /** Takes the queued commands while the path can take them. */
    private void next() {
        boolean took = false;
        while (!ended && !answering && !path.busy() && !queue.isEmpty()) {
            took = true;
            if (path.streamsLargeCommands()) {
                frames.relay(queue.takePacket(), path, this::dispatch);
                continue;
            }
            ByteBuf whole = frames.takeWhole(client.alloc());
            if (whole == null) {
                break;
            }
            dispatch(whole);
        }
        if (ended) {
            return;
        }
        if (took) {
            path.flush();
        }
        if (answering || (path.busy() && !queue.isEmpty())) {
            reads.pause(ClientReads.QUEUED);
        } else {
            reads.resume(ClientReads.QUEUED);
        }
    }

    private void dispatch(ByteBuf frame) {
        int code = frame.getUnsignedByte(frame.readerIndex() + Packet.HEADER_SIZE);
        ClientCommand kind = ClientCommand.of(code);
        switch (kind) {
            case QUIT -> {
                frame.release();
                boolean reusable = path.pending() == 0;
                ended = true;
                client.close();
                finish(reusable);
            }
            case REFUSED -> {
                frame.release();
                answer(OwnAnswer.error(Replies.UNKNOWN_COMMAND, "08S01", ClientCommand.refusal(code)));
            }
            case SQL -> sql(code, frame);
            default -> path.command(kind, code, frame);
        }
    }

    /**
     * With the proxy's own ids, CONNECTION_ID() is given the id the client was greeted with, and a
     * KILL is the proxy's to run. The text is read in the session's character set and sql_mode.
     */
    private void sql(int code, ByteBuf frame) {
        StatementContext sql = path.sql(frame);
        if (connectionId < 0) {
            path.statement(code, frame, sql);
            return;
        }
        int words = ProxyIds.words(frame);
        ByteBuf statement = ProxyIds.withConnectionId(frame, words, connectionId, sql.charset(), sql.sqlMode());
        KillStatement kill = code == Commands.COM_QUERY
                ? ProxyIds.kill(statement, words, sql.charset(), sql.sqlMode()) : null;
        if (kill == null) {
            path.statement(code, statement, sql);
            return;
        }
        statement.release();
        answering = true;
        reads.pause(ClientReads.QUEUED);
        KillCommand.run(services.kills(), view, kill, this::answer);
    }

    // ---- what paths ask ----

    @Override
    public Channel client() {
        return client;
    }

    @Override
    public SessionServices services() {
        return services;
    }

    @Override
    public KillableSession killable() {
        return view;
    }

    @Override
    public void armQueryTimeout(int command) {
        var timeout = services.config().get().timeouts().query();
        if (QueryTimeout.applies(command, timeout)) {
            QueryTimeout.arm(services.kills(), view, responsesDone + path.pending(), timeout);
        }
    }

    @Override
    public void answer(OwnAnswer answer) {
        ownAnswer = answer;
        answering = true;
        reads.pause(ClientReads.QUEUED);
        sendOwnAnswer();
    }

    /** Sends the proxy's own answer once the responses before it are out, then goes on with the next command. */
    private void sendOwnAnswer() {
        if (ownAnswer == null || path.pending() > 0 || ended) {
            return;
        }
        OwnAnswer answer = ownAnswer;
        ownAnswer = null;
        answering = false;
        if (answer.endsSession()) {
            end(1, answer.errorCode(), answer.sqlState(), answer.message());
            return;
        }
        client.writeAndFlush(answer.ok() ? Replies.ok(client.alloc(), 1, path.serverStatus())
                : Replies.err(client.alloc(), 1, answer.errorCode(), answer.sqlState(), answer.message()));
        next();
    }

    @Override
    public void responseEnded() {
        responsesDone++;
        queue.releaseHeld();
        if (ownAnswer != null) {
            sendOwnAnswer();
        }
    }

    @Override
    public void ready() {
        if (!ended && services.clients().shuttingDown() && path.canEndAtShutdown()) {
            boolean reusable = path.pending() == 0 && !frames.partlySent();
            ended = true;
            client.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            finish(reusable);
            return;
        }
        next();
    }

    @Override
    public void backendWritable(boolean writable) {
        if (ended) {
            return;
        } else if (writable) {
            reads.resume(ClientReads.BACKEND);
        } else {
            reads.pause(ClientReads.BACKEND);
        }
    }

    @Override
    public void end(int sequenceId, int code, String sqlState, String message) {
        if (ended) {
            return;
        }
        boolean reusable = path.pending() == 0 && !frames.partlySent();
        ended = true;
        if (sequenceId >= 0) {
            LingeringClose.afterSending(client, Replies.err(client.alloc(), sequenceId, code, sqlState, message));
        } else {
            client.close();
        }
        finish(reusable);
    }

    @Override
    public void closing() {
        boolean reusable = path.pending() == 0 && !frames.partlySent();
        ended = true;
        finish(reusable);
    }

    @Override
    public boolean ended() {
        return ended;
    }

    /** Once, when the session ends: it leaves the registry and its path gives back what it holds. */
    private void finish(boolean reusable) {
        if (finished) {
            return;
        }
        finished = true;
        if (idleWatch != null) {
            idleWatch.stop();
        }
        if (connectionId >= 0) {
            services.kills().sessions().unregister(connectionId, view);
        } else {
            services.kills().sessions().unregisterPassThrough(view);
        }
        services.observers().current().onSessionEnd(view);
        queue.releaseAll();
        queue.releaseHeld();
        path.end(reusable);
    }

    // ---- channel events ----

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        path.clientWritable(client.isWritable());
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        boolean idle = !path.busy() && path.pending() == 0;
        if (evt == ShutdownEvent.INSTANCE) {
            // Idle sessions go at once; busy ones once they are idle (see ready).
            if (idle) {
                ctx.close();
            }
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    /** client_idle passed without a byte from the client: the session ends unless something of its is out. */
    private boolean endIfIdle() {
        if (ended || path.busy() || path.pending() > 0) {
            return ended;
        }
        end(0, Replies.IDLE_TIMEOUT, "HY000", "The client was disconnected by the server because of inactivity"
                + " (client_idle: " + services.config().get().timeouts().clientIdle() + ")");
        return true;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        boolean reusable = path.pending() == 0 && !frames.partlySent();
        ended = true;
        finish(reusable);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        services.stats().protocolError();
        log.debug("session {} failed", ClientOrigin.of(client), cause);
        if (!ended && cause instanceof TooLongFrameException) {
            frames.tooLarge();
        } else if (!ended) {
            end(1, Replies.UNKNOWN_COMMAND, "08S01", "Malformed packet: " + Causes.rootMessage(cause));
        }
    }

    /** Commands whose response has ended. */
    long responsesDone() {
        return responsesDone;
    }

    /** KILL CONNECTION: a client waiting for a response gets ER_CONNECTION_KILLED first. */
    void endKilled() {
        end(path.awaitingResponse() ? 1 : -1, Replies.CONNECTION_KILLED, "70100", "Connection was killed");
    }
}
