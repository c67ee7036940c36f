package dev.sluice.proxy.session;

import dev.sluice.proxy.backend.BackendConnection;
import dev.sluice.proxy.backend.LoginRequest;
import dev.sluice.proxy.command.ClientCommand;
import dev.sluice.proxy.observe.StatementContext;
import io.netty.buffer.ByteBuf;
import java.util.Map;
import java.util.Set;

/**
 * How a session's commands find a backend: the one thing session mode ({@link RelayPath}: every
 * command to the connection the session got at login) and split mode (each statement routed on
 * its own) do differently. The {@link CommandPhase} reads the client, checks sizes, answers QUIT,
 * refused commands and KILL itself and keeps the session's order; everything else comes here.
 * Called on the session's event loop only.
 */
public interface StatementPath {

    /** Once, before any command: the session this path serves. */
    void attach(CommandSession session);

    /** A command of 16 MiB or more goes on packet by packet as it comes; else it is held until whole. */
    boolean streamsLargeCommands();

    /** Not ready for another command: the next waits in the session's queue until {@link CommandSession#ready}. */
    boolean busy();

    /** Responses still owed to the client for commands this path sent. */
    int pending();

    /** Takes {@code frame} if it is data something under way waits for (LOCAL INFILE contents, an auth exchange). */
    boolean takesClientData(ByteBuf frame);

    /** The context a COM_QUERY or COM_STMT_PREPARE frame is read in: the session's character set and sql_mode. */
    StatementContext sql(ByteBuf frame);

    /** A COM_QUERY or COM_STMT_PREPARE, its CONNECTION_ID() rewritten; {@code sql} as {@link #sql} gave it. */
    void statement(int code, ByteBuf frame, StatementContext sql);

    /** Any other command the session does not answer itself ({@code kind} says which). */
    void command(ClientCommand kind, int code, ByteBuf frame);

    /** The next packet of a command of 16 MiB or more, when this path streams them. */
    void continuation(ByteBuf frame);

    /** The client's read is done: what was written to a backend goes out. */
    void flush();

    /** A slow client must not make the proxy buffer a result: its backend is not read while it cannot take more. */
    void clientWritable(boolean writable);

    /** The transaction and autocommit status flags of an OK the proxy sends itself. */
    int serverStatus();

    /** A command is out and its response has not begun: an ERR with sequence id 1 can still answer it. */
    boolean awaitingResponse();

    /** At shutdown, after a response: the session may end now without cutting anything. */
    boolean canEndAtShutdown();

    /**
     * The session ends: what it holds is given back, or closed. {@code reusable}: no command of the
     * session is partly sent or unanswered, so a connection it had for itself may serve another.
     */
    void end(boolean reusable);

    /** How the session's backend connections log in (null in pass-through mode). */
    LoginRequest login();

    /** The collation id the client logged in with (its handshake response), or -1 when not known. */
    default int loginCollation() {
        return -1;
    }

    /**
     * The session variables the client has set to other values than its login left them at, by
     * name; null when the path does not follow them. A fresh map each call.
     */
    default Map<String, String> changedVariables() {
        return null;
    }

    String user();

    String schema();

    Set<String> pins();

    String backendName();

    /** The backend connection running the session's statement now, or null. */
    BackendConnection statementConnection();

    /** KILL QUERY: a statement that has not reached a backend yet fails instead of running. */
    void interruptPending();
}
