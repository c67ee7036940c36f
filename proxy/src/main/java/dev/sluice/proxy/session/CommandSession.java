package dev.sluice.proxy.session;

import dev.sluice.proxy.command.OwnAnswer;
import dev.sluice.proxy.kill.KillableSession;
import io.netty.channel.Channel;

/** What a {@link StatementPath} may ask of the session it serves (its {@link CommandPhase}). */
public interface CommandSession {

    Channel client();

    SessionServices services();

    /** The session as KILL, the query timeout and the observers know it. */
    KillableSession killable();

    /** A statement of this command is about to be sent: timeouts.query starts for it, when it applies. */
    void armQueryTimeout(int command);

    /** The proxy answers the command just taken itself, after the responses to the commands before it. */
    void answer(OwnAnswer answer);

    /** The response to a client command ended (the session counts them: a query timeout tells them apart). */
    void responseEnded();

    /** The path takes commands again: queued ones go on, or the session ends when shutdown began. */
    void ready();

    /** The backend cannot take more bytes now (false) or can again: the client is not read meanwhile. */
    void backendWritable(boolean writable);

    /** Ends the session, with a last ERR when {@code sequenceId} is 0 or more, else just closing. */
    void end(int sequenceId, int code, String sqlState, String message);

    /** The path already sent the client its last packet and a close after it: the session ends, writing no more. */
    void closing();

    boolean ended();
}
