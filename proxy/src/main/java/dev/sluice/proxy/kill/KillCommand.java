package dev.sluice.proxy.kill;

import dev.sluice.proxy.backend.BackendConnection;
import dev.sluice.proxy.command.OwnAnswer;
import dev.sluice.proxy.command.Replies;
import dev.sluice.proxy.sql.KillStatement;
import io.netty.channel.EventLoop;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Runs a KILL that names a session by the id the proxy greeted it with, the same way for both
 * session kinds, answering as MariaDB does for its own threads: 1094 for an id that names no
 * session, 1095 for another user's session, 1317 for KILL QUERY of one's own and 1927 for KILL of
 * one's own connection. A statement the target is running is killed where it runs, by a
 * {@link BackendKill} on that backend; KILL CONNECTION then ends the target session.
 *
 * <p>Ownership is by user name: an account with the server's CONNECTION ADMIN privilege still
 * cannot kill another user's session through the proxy.
 */
public final class KillCommand {

    /** ER_NO_SUCH_THREAD. */
    static final int NO_SUCH_THREAD = 1094;
    /** ER_KILL_DENIED_ERROR. */
    static final int NOT_OWNER = 1095;
    /** ER_NOT_SUPPORTED_YET. */
    static final int NOT_SUPPORTED = 1235;

    private final Kills kills;
    private final KillableSession killer;
    private final EventLoop killerLoop;
    private final KillStatement kill;
    private final Consumer<OwnAnswer> done;

    private KillCommand(Kills kills, KillableSession killer, KillStatement kill, Consumer<OwnAnswer> done) {
        this.kills = kills;
        this.killer = killer;
        this.killerLoop = killer.eventLoop();
        this.kill = kill;
        this.done = done;
    }

    /**
     * Runs {@code kill}, sent by {@code killer}; called on the killer's event loop, where
     * {@code done} gets the answer (at once, or once the target's loop and backend have acted).
     */
    public static void run(Kills kills, KillableSession killer, KillStatement kill,
                           Consumer<OwnAnswer> done) {
        new KillCommand(kills, killer, kill, done).start();
    }

    private void start() {
        switch (kill.form()) {
            case EXPRESSION -> {
                answer(OwnAnswer.error(NOT_SUPPORTED, "42000", "Sluice gives clients its own thread ids and kills"
                        + " only a thread id written as a number (KILL [QUERY] 42)"));
                return;
            }
            case AMONG_OTHERS -> {
                answer(OwnAnswer.error(NOT_SUPPORTED, "42000", "Sluice gives clients its own thread ids and runs"
                        + " KILL only as a statement on its own, not among others in one query"));
                return;
            }
            case THREAD -> {
            }
        }
        KillableSession target = kills.sessions().byId(kill.threadId()).orElse(null);
        if (target == null) {
            answer(OwnAnswer.error(NO_SUCH_THREAD, "HY000", "Unknown thread id: " + kill.threadId()));
        } else if (target == killer) {
            answer(kill.query()
                    ? OwnAnswer.error(Replies.QUERY_INTERRUPTED, "70100", "Query execution was interrupted")
                    : new OwnAnswer(Replies.CONNECTION_KILLED, "70100", "Connection was killed", true));
        } else {
            String user = killer.user();
            target.eventLoop().execute(() -> onTargetLoop(target, user));
        }
    }

    private void onTargetLoop(KillableSession target, String user) {
        if (!Objects.equals(target.user(), user)) {
            answer(OwnAnswer.error(NOT_OWNER, "HY000", "You are not owner of thread " + kill.threadId()));
            return;
        }
        BackendConnection running = target.statementConnection();
        if (running != null) {
            // Before the session ends: its connection must not go back to a pool until the KILL is answered.
            running.killStarted();
        }
        if (kill.query()) {
            target.interruptPending();
        } else {
            target.endKilled();
        }
        if (running == null) {
            answer(OwnAnswer.OK);
            return;
        }
        BackendKill.send(kills, running, target.login(), kill.modifier(), this::answer);
    }

    private void answer(OwnAnswer result) {
        if (killerLoop.inEventLoop()) {
            done.accept(result);
        } else {
            killerLoop.execute(() -> done.accept(result));
        }
    }
}
