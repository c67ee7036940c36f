package dev.sluice.proxy.backend;

import io.netty.channel.EventLoop;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** One pool's idle connections, kept apart per event loop ({@link LoopIdle}), with their count over all loops. */
final class IdleConnections {

    private final Map<EventLoop, LoopIdle> byLoop = new ConcurrentHashMap<>();
    /** All loops' idle connections: a hint for where to make room, and the stats' figure. */
    private final AtomicInteger count = new AtomicInteger();

    int count() {
        return count.get();
    }

    /** An idle connection of {@code key} on {@code loop}, {@code schema} selected if one is (see {@link LoopIdle#take}). */
    BackendConnection take(EventLoop loop, PoolKey key, String schema) {
        BackendConnection taken = on(loop).take(key, schema);
        if (taken != null) {
            count.decrementAndGet();
        }
        return taken;
    }

    /**
     * One of {@code preferred} if idle on {@code loop} under {@code key}, else another
     * ({@link LoopIdle#take(PoolKey, Collection)}).
     */
    BackendConnection take(EventLoop loop, PoolKey key, Collection<? extends BackendConnection> preferred) {
        BackendConnection taken = on(loop).take(key, preferred);
        if (taken != null) {
            count.decrementAndGet();
        }
        return taken;
    }

    void add(BackendConnection connection) {
        on(connection.channel().eventLoop()).add(connection);
        count.incrementAndGet();
    }

    /** False when {@code connection} was not idle (taken meanwhile, or never given back). */
    boolean remove(BackendConnection connection) {
        if (on(connection.channel().eventLoop()).remove(connection)) {
            count.decrementAndGet();
            return true;
        }
        return false;
    }

    /** The connection idle longest on any loop, taken out; null when none is. */
    BackendConnection takeOldest() {
        if (count.get() == 0) {
            return null;
        }
        LoopIdle from = holdingOldest();
        BackendConnection taken = from == null ? null : from.takeOldest();
        if (taken != null) {
            count.decrementAndGet();
        }
        return taken;
    }

    /** The loop whose oldest idle connection is idle longest of all; null when none is idle. */
    private LoopIdle holdingOldest() {
        LoopIdle from = null;
        long since = 0;
        for (LoopIdle idle : byLoop.values()) {
            BackendConnection oldest = idle.peekOldest();
            if (oldest != null && (from == null || oldest.idleSinceNanos() - since < 0)) {
                from = idle;
                since = oldest.idleSinceNanos();
            }
        }
        return from;
    }

    /** Closes, each on its loop, the connections idle since before {@code cutoffNanos}. */
    void quitIdleSince(long cutoffNanos) {
        for (LoopIdle idle : byLoop.values()) {
            quit(idle.takeIdleSince(cutoffNanos));
        }
    }

    /**
     * Closes, each on its loop, the connections idle longest while more than {@code keep} are idle,
     * as long as they are idle since before {@code cutoffNanos}.
     */
    void quitSurplus(int keep, long cutoffNanos) {
        while (count.get() > keep) {
            LoopIdle from = holdingOldest();
            BackendConnection surplus = from == null ? null : from.takeOldestIdleSince(cutoffNanos);
            if (surplus == null) {
                return;
            }
            count.decrementAndGet();
            surplus.channel().eventLoop().execute(surplus::quit);
        }
    }

    /** Closes every idle connection, each on its loop. */
    void quitAll() {
        for (LoopIdle idle : byLoop.values()) {
            quit(idle.takeAll());
        }
    }

    private void quit(List<BackendConnection> connections) {
        count.addAndGet(-connections.size());
        for (BackendConnection connection : connections) {
            connection.channel().eventLoop().execute(connection::quit);
        }
    }

    private LoopIdle on(EventLoop loop) {
        LoopIdle idle = byLoop.get(loop);
        return idle != null ? idle : byLoop.computeIfAbsent(loop, l -> new LoopIdle());
    }
}
