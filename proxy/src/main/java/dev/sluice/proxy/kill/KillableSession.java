package dev.sluice.proxy.kill;

import dev.sluice.proxy.backend.BackendConnection;
import dev.sluice.proxy.backend.LoginRequest;
import dev.sluice.proxy.observe.SessionInfo;
import io.netty.channel.EventLoop;

/**
 * A client session the proxy greeted with an id of its own (users configured, either routing
 * mode), as a KILL from another session finds it in the runtime's registry. Every method but
 * {@link #eventLoop()} must be called on that event loop.
 */
public interface KillableSession extends SessionInfo {

    /** The loop the session, and every backend connection it uses, runs on. */
    EventLoop eventLoop();

    /** How its backend connections log in: a KILL of its statement logs in the same way. */
    LoginRequest login();

    /** How many of the session's commands have had their whole response: the next one's number. */
    long responsesDone();

    /** The backend connection running the session's statement now, or null when none runs one. */
    BackendConnection statementConnection();

    /**
     * KILL QUERY: a statement that has not reached a backend yet (waiting for a connection, or
     * for the connection's set-up) fails with ER_QUERY_INTERRUPTED instead of running.
     */
    void interruptPending();

    /**
     * KILL CONNECTION: the session ends. A client waiting for a response gets
     * ER_CONNECTION_KILLED first; an idle one sees the connection close, as with MariaDB.
     */
    void endKilled();
}
