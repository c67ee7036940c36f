package dev.sluice.proxy.kill;

import dev.sluice.protocol.Commands;
import dev.sluice.proxy.backend.BackendConnection;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * timeouts.query: a statement still running when its time is up is killed on its backend, as a
 * client's own KILL QUERY would be, and its client gets the server's ER_QUERY_INTERRUPTED. The timer
 * is not cancelled when the statement ends sooner: it finds the session past that statement and
 * does nothing, which costs less than taking it out of the loop's queue on every statement.
 */
public final class QueryTimeout {

    private QueryTimeout() {
    }

    /** Whether {@code command} is one a timeout applies to (a statement, not a prepare or a ping). */
    public static boolean applies(int command, Duration timeout) {
        return !timeout.isZero() && (command == Commands.COM_QUERY || command == Commands.COM_STMT_EXECUTE);
    }

    /**
     * Arms the timer for the session's statement number {@code statement} (counting from 0, the
     * one the session's {@link KillableSession#responsesDone()} will pass when it ends).
     */
    public static void arm(Kills kills, KillableSession session, long statement, Duration timeout) {
        session.eventLoop().schedule(() -> expire(kills, session, statement), timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    private static void expire(Kills kills, KillableSession session, long statement) {
        if (session.responsesDone() != statement) {
            return;
        }
        BackendConnection running = session.statementConnection();
        if (running == null || !running.channel().isActive()) {
            return;
        }
        if (session.login() == null) {
            // Pass-through: the proxy has no password to log a KILL connection in with. Closing the
            // connection ends the session and, once the server notices, the statement.
            running.fail("the statement ran past timeouts.query (" + kills.config().get().timeouts().query().toMillis()
                    + " ms); a pass-through session's backend connection is closed then, as no KILL QUERY can reach it");
            return;
        }
        running.killStarted();
        BackendKill.send(kills, running, session.login(), "", answer -> { });
    }
}
