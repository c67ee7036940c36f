package dev.sluice.proxy.split;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.auth.Credential;
import dev.sluice.protocol.auth.ServerStep;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.proxy.auth.ClientAuth;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.TrackedConnection;
import dev.sluice.proxy.backend.BackendLoginException;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.proxy.backend.LoginRequest;
import dev.sluice.proxy.backend.LossListener;
import dev.sluice.proxy.backend.OwnCommands;
import dev.sluice.proxy.client.ClientOrigin;
import dev.sluice.proxy.command.Replies;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A split session's COM_CHANGE_USER from its first packet to its OK or ERR: the auth exchange with
 * the client ({@link ChangeUser}), then, when the new account names a database, a check of it on
 * the primary. The session reads no command meanwhile; every frame goes to {@link #read}.
 */
final class ChangeUserFlow {

    /** What the flow asks of its session. */
    interface Session {
        LoginRequest login();

        String schema();

        /**
         * The session starts over as {@code user}: nothing of the old state survives; when the
         * server {@code refused} the change, as it leaves the session then. {@code then} runs once
         * the session's connections are ready for it.
         */
        void startOver(String user, Credential credential, String schema, int charset, boolean refused,
                       Runnable then);

        /** The exchange ended with an OK or ERR sent: the session takes commands again. */
        void changeDone();

        /** The client's packets broke the protocol: the connection closes after this ERR. */
        void changeEnded(int sequenceId, int code, String sqlState, String message);
    }

    /** The server's pause before it answers a refused change, and how many it checks at all. */
    static final long REFUSAL_PAUSE_MILLIS = 1000;
    private static final int REFUSALS_BEFORE_LOCKOUT = 3;

    private final ClientAuth auth;
    private final SplitBackends backends;
    private final Channel client;
    private final long clientCapabilities;
    private final byte[] seed;
    private final boolean secure;
    private final Session session;
    private ChangeUser change;
    /** Changes refused on this connection. */
    private int refusals;
    /** A step of {@link #change} runs on the auth threads. */
    private boolean working;

    ChangeUserFlow(ClientAuth auth, SplitBackends backends, Channel client, long clientCapabilities, byte[] seed,
                   boolean secure,
                   Session session) {
        this.auth = auth;
        this.backends = backends;
        this.client = client;
        this.clientCapabilities = clientCapabilities;
        this.seed = seed.clone();
        this.secure = secure;
        this.session = session;
    }

    boolean active() {
        return change != null;
    }

    /** The COM_CHANGE_USER packet, released here. */
    void start(ByteBuf frame) {
        try {
            String host = ClientOrigin.of(client).host();
            change = ChangeUser.start(auth, frame, clientCapabilities, seed, host, secure);
            if (refusals >= REFUSALS_BEFORE_LOCKOUT) {
                refused(change, Replies.UNKNOWN_COMMAND, "08S01", "Unknown command");
                return;
            }
            afterStep(change, change.first(client));
        } catch (ProtocolException e) {
            change = null;
            session.changeEnded(1, 1047, "08S01", "Malformed COM_CHANGE_USER: " + e.getMessage());
        } finally {
            frame.release();
        }
    }

    /** The client's next auth packet, released here. */
    void read(ByteBuf frame) {
        try {
            ChangeUser current = change;
            if (working || current == null) {
                // One step at a time: a client that sends before it has its answer is not speaking the protocol.
                change = null;
                session.changeEnded(RawPacketDecoder.sequenceId(frame) + 1, 1043, "08S01",
                        "Bad handshake: an auth packet before the answer to the last one");
                return;
            }
            working = true;
            boolean offLoop = current.nextOffLoop(frame, client, progress -> {
                working = false;
                if (progress != null && change == current) {
                    client.config().setAutoRead(true);
                    afterStep(current, progress);
                }
            });
            if (offLoop) {
                client.config().setAutoRead(!working);
            } else {
                working = false;
                afterStep(current, current.next(frame, client));
            }
        } finally {
            frame.release();
        }
    }

    /** The session ended meanwhile: whatever is still under way answers no one. */
    void abandon() {
        change = null;
    }

    private void afterStep(ChangeUser current, ChangeUser.Progress progress) {
        switch (progress) {
            case WAITING -> {
            }
            case ACCEPTED -> {
                String database = current.request().database();
                if (database == null || database.isEmpty()) {
                    changed(current, null);
                } else {
                    checkDatabase(current, database);
                }
            }
            case REJECTED -> {
                ServerStep.Reject reject = current.rejection();
                refused(current, reject.errorCode(), reject.sqlState(), reject.message());
            }
        }
    }

    /**
     * The server refuses a change of user to a database that does not exist or that the account
     * may not use: a connection of the new account on the primary tries to select it first.
     */
    private void checkDatabase(ChangeUser current, String database) {
        Backend primary = backends.router().primary(Set.of()).orElse(null);
        if (primary == null) {
            // Nowhere to check: the first statement selects it, or says the backend is down.
            changed(current, null);
            return;
        }
        BackendPool pool = backends.pools().apply(primary);
        LoginRequest login = session.login();
        LoginRequest request = login.as(current.account().name(), current.credential(), login.charset(), database);
        pool.acquire(request, client.eventLoop()).addListener(done -> {
            if (done.isSuccess()) {
                selectAgain(current, pool, (TrackedConnection) done.getNow(), database);
            } else if (change == current) {
                changed(current, done.cause());
            }
        });
    }

    /**
     * A pooled connection that logged in to the database before another session dropped it still
     * names it (the server tells only the session that dropped it), so the pool's connection
     * proves nothing: the database is selected again. One that is gone leaves the pool with it.
     */
    private void selectAgain(ChangeUser current, BackendPool pool, TrackedConnection connection, String database) {
        // Lost meanwhile: as with no primary to check on, the change goes ahead.
        connection.listener((LossListener) reason -> {
            if (change == current) {
                changed(current, null);
            }
        });
        connection.sendOwn(OwnCommands.initDb(connection.channel().alloc(), database), Commands.COM_INIT_DB, response -> {
            BackendLoginException refused = null;
            if (response.isError()) {
                refused = new BackendLoginException(response.errorCode(),
                        response.sqlState() == null ? "HY000" : response.sqlState(), response.errorMessage(), true);
                pool.discard(connection);
            } else {
                pool.releaseTracked(connection);
            }
            if (change == current) {
                changed(current, refused);
            }
        });
    }

    /**
     * As the server refuses a change: it resets the session before it checks the new account, and
     * gives the old account, schema and the character set variables as they were after the reset
     * (its globals) back when the check fails, so the session starts over as itself; it answers a
     * second later, and from the fourth change on a connection refuses each one before any check
     * (sql_parse.cc: failed_com_change_user), against guessing through a connection.
     */
    private void refused(ChangeUser current, int code, String sqlState, String message) {
        change = null;
        refusals++;
        LoginRequest login = session.login();
        session.startOver(login.user(), login.credential(), session.schema(), login.charset(), true,
                () -> client.eventLoop().schedule(() -> {
                    if (client.isActive()) {
                        current.sendErr(client, code, sqlState, message);
                        session.changeDone();
                    }
                }, REFUSAL_PAUSE_MILLIS, TimeUnit.MILLISECONDS));
    }

    /** The session becomes the new account, or stays as it was when the server refused. */
    private void changed(ChangeUser current, Throwable failure) {
        change = null;
        LoginRequest login = session.login();
        if (failure instanceof BackendLoginException e && e.refusedByServer()) {
            refused(current, e.errorCode(), e.sqlState(), e.getMessage());
        } else {
            int charset = current.request().characterSet() > 0 ? current.request().characterSet() : login.charset();
            session.startOver(current.account().name(), current.credential(), current.request().database(), charset,
                    false, () -> {
                current.sendOk(client);
                session.changeDone();
            });
        }
    }
}
