package dev.sluice.proxy.backend;

import io.netty.channel.EventLoop;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The connections KILLs are sent on, kept a while for the next one. A KILL must not wait for the
 * pool (every connection it may open can be busy, as the one to kill is), so it has a connection of
 * its own, logged in as the target session is; logging one in is four round trips, which on busy
 * event loops took seconds (a Connector/J query timeout of 1 s fired after 10). Outside the
 * pools' caps: at most one per event loop, backend and user, closed after a minute unused.
 */
public final class KillConnections {

    private static final long KEEP_SECONDS = 60;

    private record Key(EventLoop loop, Backend backend, String user) {
    }

    /**
     * One stay in the map, equal only to itself (not a record): a timer ends this stay, not a
     * later one of the same connection.
     */
    private static final class Kept {
        private final BackendConnection connection;

        Kept(BackendConnection connection) {
            this.connection = connection;
        }

        BackendConnection connection() {
            return connection;
        }
    }

    private final Map<Key, Kept> idle = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** A kept connection for a KILL on {@code loop} to {@code backend} as {@code user}, or null. */
    public BackendConnection take(EventLoop loop, Backend backend, String user) {
        Kept kept = idle.remove(new Key(loop, backend, user));
        if (kept == null) {
            return null;
        }
        if (!kept.connection().isUsable()) {
            // Closed by the server (wait_timeout) while kept.
            kept.connection().quit();
            return null;
        }
        return kept.connection();
    }

    /** After its KILL was answered: kept for the next one, unless one is kept already. */
    public void giveBack(EventLoop loop, Backend backend, String user, BackendConnection connection) {
        connection.listener(null);
        Key key = new Key(loop, backend, user);
        Kept kept = new Kept(connection);
        if (closed || !connection.isUsable() || idle.putIfAbsent(key, kept) != null) {
            connection.quit();
            return;
        }
        loop.schedule(() -> {
            if (idle.remove(key, kept)) {
                connection.quit();
            }
        }, KEEP_SECONDS, TimeUnit.SECONDS);
    }

    /** At shutdown. */
    public void closeAll() {
        closed = true;
        idle.values().forEach(k -> k.connection().channel().eventLoop().execute(k.connection()::quit));
        idle.clear();
    }
}
