package dev.sluice.proxy.kill;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.backend.BackendConnection;
import dev.sluice.proxy.backend.BackendLoginException;
import dev.sluice.proxy.backend.KillConnections;
import dev.sluice.proxy.backend.LoginRequest;
import dev.sluice.proxy.backend.LossListener;
import dev.sluice.proxy.backend.OwnCommands;
import dev.sluice.proxy.command.OwnAnswer;
import java.util.function.Consumer;

/**
 * One {@code KILL QUERY} of a backend connection's thread, sent on a connection of its own to the
 * same backend, logged in as the target session is (the server checks the privilege as for a
 * direct client) and kept a while for the next KILL ({@link KillConnections}). Not a pooled one: a KILL must get through when every
 * connection the pool may open is busy, as the one it kills is; the server's own
 * max_connections still applies. The target's client then gets the server's own answer to its
 * statement (ER_QUERY_INTERRUPTED).
 *
 * <p>The target connection's {@link BackendConnection#killStarted()} must have been called; this
 * ends it when the server has answered, so until then the connection serves nobody else.
 */
final class BackendKill implements LossListener {

    private final BackendConnection target;
    private final Consumer<OwnAnswer> done;
    private boolean finished;

    private BackendKill(BackendConnection target, Consumer<OwnAnswer> done) {
        this.target = target;
        this.done = done;
    }

    /** Called on the target connection's event loop; {@code done} is called there too. */
    static void send(Kills kills, BackendConnection target, LoginRequest login, String modifier,
                     Consumer<OwnAnswer> done) {
        BackendKill kill = new BackendKill(target, done);
        if (target.threadId() < 0) {
            // A greeting without a thread id: nothing to name.
            kill.finish(OwnAnswer.OK);
            return;
        }
        String sql = "KILL " + modifier + "QUERY " + target.threadId();
        KillConnections kept = kills.connections();
        io.netty.channel.EventLoop loop = target.channel().eventLoop();
        BackendConnection idle = kept.take(loop, target.backend(), login.user());
        if (idle != null) {
            kill.sendOn(idle, sql, kept, login.user());
            return;
        }
        LoginRequest request = login.withSchema(null).withoutOrigin();
        kills.connector().connect(target.backend(), request, loop).addListener(connected -> {
            if (!connected.isSuccess()) {
                kill.finish(connected.cause() instanceof BackendLoginException e
                        ? OwnAnswer.error(e.errorCode(), e.sqlState(), e.getMessage())
                        : OwnAnswer.error(BackendLoginException.BACKEND_UNAVAILABLE, "08S01",
                                "No connection to backend " + target.backend().name() + " to kill the query on: "
                                        + connected.cause()));
                return;
            }
            kill.sendOn((BackendConnection) connected.getNow(), sql, kept, login.user());
        });
    }

    private void sendOn(BackendConnection connection, String sql, KillConnections kept, String user) {
        connection.listener(this);
        connection.sendOwn(OwnCommands.query(connection.channel().alloc(), sql), Commands.COM_QUERY, response -> {
            kept.giveBack(target.channel().eventLoop(), target.backend(), user, connection);
            onAnswer(response);
        });
    }

    private void onAnswer(Response response) {
        // 1094: the statement ended and its connection closed meanwhile; the kill has nothing left to do.
        finish(response.isError() && response.errorCode() != KillCommand.NO_SUCH_THREAD
                ? OwnAnswer.error(response.errorCode(), response.sqlState() == null ? "HY000" : response.sqlState(),
                        response.errorMessage())
                : OwnAnswer.OK);
    }

    private void finish(OwnAnswer result) {
        if (finished) {
            return;
        }
        finished = true;
        target.killEnded();
        done.accept(result);
    }

    @Override
    public void onBackendLost(String reason) {
        finish(OwnAnswer.error(BackendLoginException.BACKEND_UNAVAILABLE, "08S01", "Lost connection to backend "
                + target.backend().name() + " while killing the query: " + reason));
    }
}
