package dev.sluice.proxy.backend;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.response.Response;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The backend connections of one backend, for all users and event loops. At most
 * {@code max_connections} are open (or opening) at once; beyond that sessions wait in a bounded
 * queue, served in order, as a server serves more clients than it has threads: slower, never
 * refused while the backend gets through its work. A wait ends in an ERR naming the backend and
 * its cap only when no connection came free for the whole queue timeout (a stalled backend). A connection
 * given back is reset (COM_RESET_CONNECTION) before anyone else gets it. Connections stay on the
 * event loop that opened them: a session takes an idle one from its own loop, else opens one, and
 * when the cap is reached an idle connection elsewhere is closed to make room.
 */
public final class BackendPool {

    private final Backend backend;
    private final BackendConnector connector;
    /**
     * A waiter on another event loop than a freed connection's gets that connection's slot (the
     * connection closes, the waiter opens its own) instead of a same-loop waiter once it has waited
     * this much longer: connections then move to the loop that needs them, and no waiter starves,
     * without a login per hand-over while both loops' waiters are served alike.
     */
    private static final long UNFAIR_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** Set on reload; read under the lock or by the loops' timeout tasks. */
    private volatile int queueSize;
    private volatile Duration queueTimeout;
    /** When the queue last moved: a connection or slot went to a waiter. */
    private volatile long progressNanos = System.nanoTime();
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<PoolKey, ArrayDeque<BackendConnection>> idle = new HashMap<>();
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    private int idleCount;
    private boolean closed;

    /**
     * A session waiting for room under max_connections: either a slot to open its own connection
     * (the promise completes with true), or, when it wants a pooled connection, an idle one of its
     * key on its event loop handed over directly (the promise completes with false).
     */
    private static final class Waiter {
        final EventLoop loop;
        final PoolKey key;
        final java.util.function.Consumer<BackendConnection> handOver;
        final Promise<Boolean> granted;
        final long sinceNanos = System.nanoTime();
        ScheduledFuture<?> timeout;

        Waiter(EventLoop loop, PoolKey key, java.util.function.Consumer<BackendConnection> handOver) {
            this.loop = loop;
            this.key = key;
            this.handOver = handOver;
            this.granted = loop.newPromise();
        }

        boolean takes(BackendConnection connection) {
            return handOver != null && key.equals(connection.poolKey()) && loop == connection.channel().eventLoop();
        }
    }

    public BackendPool(Backend backend, BackendConnector connector, int queueSize, Duration queueTimeout) {
        this.backend = backend;
        this.connector = connector;
        this.queueSize = queueSize;
        this.queueTimeout = queueTimeout;
    }

    public Backend backend() {
        return backend;
    }

    /** A reload's limits.backend_queue_size and timeouts.backend_queue; sessions already waiting keep their place. */
    public void queueLimits(int size, Duration timeout) {
        queueSize = size;
        queueTimeout = timeout;
    }

    public int idleCount() {
        lock.lock();
        try {
            return idleCount;
        } finally {
            lock.unlock();
        }
    }

    public int waiting() {
        lock.lock();
        try {
            return waiters.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * A logged-in connection for {@code request} on {@code loop}, with {@code request.schema()}
     * selected. Fails with a {@link BackendLoginException}. Cancelling the future takes the caller
     * out of the wait queue; a connection that comes for it all the same goes back to the pool.
     */
    public Future<BackendConnection> acquire(LoginRequest request, EventLoop loop) {
        Promise<BackendConnection> result = loop.newPromise();
        PoolKey key = PoolKey.of(request, backend.config().sendProxyProtocol());
        BackendConnection reused = takeIdle(key, request.schema(), loop);
        if (reused != null) {
            selectSchema(reused, request.schema(), result);
            return result;
        }
        Waiter waiter = new Waiter(loop, key, handedOver -> selectSchema(handedOver, request.schema(), result));
        result.addListener(done -> {
            if (done.isCancelled()) {
                withdraw(waiter);
            }
        });
        reserve(waiter).addListener(granted -> {
            if (!granted.isSuccess()) {
                result.tryFailure(granted.cause());
                return;
            }
            if (!Boolean.TRUE.equals(granted.getNow())) {
                return;
            }
            connector.connect(backend, request, loop).addListener(connected -> {
                if (!connected.isSuccess()) {
                    slotFreed();
                    result.tryFailure(connected.cause());
                    return;
                }
                BackendConnection connection = (BackendConnection) connected.getNow();
                connection.poolKey(key);
                connection.channel().closeFuture().addListener(closed -> onClosed(connection));
                if (!result.trySuccess(connection)) {
                    release(connection);
                }
            });
        });
        return result;
    }

    /**
     * One slot under max_connections, for a connection the caller opens itself (pass-through
     * sessions); give it back with {@link #slotFreed()} when that connection closes.
     */
    public Future<Void> reserveSlot(EventLoop loop) {
        Promise<Void> slot = loop.newPromise();
        reserve(new Waiter(loop, null, null)).addListener(granted -> {
            if (granted.isSuccess()) {
                slot.setSuccess(null);
            } else {
                slot.setFailure(granted.cause());
            }
        });
        return slot;
    }

    private Future<Boolean> reserve(Waiter waiter) {
        BackendConnection victim;
        lock.lock();
        try {
            if (closed) {
                return waiter.loop.newFailedFuture(unavailable("the proxy is shutting down"));
            }
            int max = backend.config().maxConnections();
            if (backend.openConnections().get() < max) {
                backend.openConnections().incrementAndGet();
                return waiter.loop.newSucceededFuture(true);
            }
            victim = oldestIdle();
            if (victim == null) {
                if (waiters.size() >= queueSize || queueTimeout.isZero()) {
                    return waiter.loop.newFailedFuture(capReached("and " + waiters.size() + " sessions already wait"));
                }
                waiters.addLast(waiter);
            } else {
                // Its slot goes to this caller: the close below does not free it.
                victim.slotHandedOver(true);
            }
        } finally {
            lock.unlock();
        }
        if (victim != null) {
            victim.channel().eventLoop().execute(victim::quit);
            return waiter.loop.newSucceededFuture(true);
        }
        armTimeout(waiter, queueTimeout.toNanos());
        return waiter.granted;
    }

    /** A waiter whose caller gave up (a KILL QUERY, its session ended) leaves the queue. */
    private void withdraw(Waiter waiter) {
        if (removeWaiter(waiter)) {
            if (waiter.timeout != null) {
                waiter.timeout.cancel(false);
            }
            waiter.granted.tryFailure(new java.util.concurrent.CancellationException("the caller stopped waiting"));
        }
    }

    /** Takes a waiter out of the queue; false if it was no longer there (served or failed). */
    private boolean removeWaiter(Waiter waiter) {
        lock.lock();
        try {
            return waiters.remove(waiter);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The waiter fails once no connection has come free for the queue timeout; while the queue
     * moves, it waits on, however long the line ahead of it.
     */
    private void armTimeout(Waiter waiter, long delayNanos) {
        waiter.timeout = waiter.loop.schedule(() -> {
            Duration limit = queueTimeout;
            long stalled = System.nanoTime() - progressNanos;
            if (stalled < limit.toNanos()) {
                armTimeout(waiter, limit.toNanos() - stalled);
                return;
            }
            if (removeWaiter(waiter)) {
                waiter.granted.tryFailure(capReached("and no connection came free within " + limit.toMillis() + " ms"));
            }
        }, delayNanos, TimeUnit.NANOSECONDS);
    }

    /** Gives a connection back: reset, then to a waiting session or the idle set. */
    public void release(BackendConnection connection) {
        connection.listener(null);
        readable(connection);
        if (connection.releaseAfterKills(() -> release(connection))) {
            return;
        }
        if (!connection.isUsable() || closed) {
            connection.quit();
            return;
        }
        connection.sendOwn(OwnCommands.resetConnection(connection.channel().alloc()), Commands.COM_RESET_CONNECTION,
                response -> {
            if (response.isError() || !connection.isUsable()) {
                connection.quit();
                return;
            }
            connection.resetState();
            if (connection.framed()) {
                connection.afterReset(restored -> {
                    if (restored.isError()) {
                        connection.quit();
                    } else {
                        makeIdle(connection);
                    }
                });
                return;
            }
            makeIdle(connection);
        });
    }

    /**
     * Split mode: gives a connection back without resetting it. Its session state is known (the
     * server tracks it), so the next session replays only what differs.
     */
    public void releaseTracked(BackendConnection connection) {
        connection.listener(null);
        readable(connection);
        if (connection.releaseAfterKills(() -> releaseTracked(connection))) {
            return;
        }
        connection.stripSessionState(false);
        if (!connection.isUsable() || closed) {
            connection.quit();
            return;
        }
        connection.resetState();
        makeIdle(connection);
    }

    /**
     * A session pauses reading from its backend connection while its client cannot take more
     * bytes; the response may end, and the connection come back, while paused. Reading is switched
     * back on here, whatever the session did: a pooled connection that is not read hangs the next
     * session's statement (and the reset's reply in {@link #release}).
     */
    private static void readable(BackendConnection connection) {
        connection.channel().config().setAutoRead(true);
    }

    /** Closes a connection that must not be reused (its session broke mid-response). */
    public void discard(BackendConnection connection) {
        connection.listener(null);
        connection.quit();
    }

    private void makeIdle(BackendConnection connection) {
        Waiter waiter;
        boolean direct;
        lock.lock();
        try {
            Waiter oldest = waiters.peekFirst();
            if (oldest == null) {
                if (!closed) {
                    idle.computeIfAbsent(connection.poolKey(), k -> new ArrayDeque<>()).addLast(connection);
                    idleCount++;
                    return;
                }
                waiter = null;
                direct = false;
            } else {
                waiter = oldest.takes(connection) ? oldest : firstTaking(connection);
                direct = waiter != null && (waiter == oldest || waiter.sinceNanos - oldest.sinceNanos < UNFAIR_NANOS);
                if (!direct) {
                    waiter = oldest;
                    connection.slotHandedOver(true);
                }
                waiters.remove(waiter);
                progressNanos = System.nanoTime();
            }
        } finally {
            lock.unlock();
        }
        if (waiter == null) {
            // The pool closed while this connection was on its way back (its reset's reply came
            // after close() emptied the idle set): nothing would take it or quit it from there.
            connection.quit();
            return;
        }
        if (waiter.timeout != null) {
            waiter.timeout.cancel(false);
        }
        if (direct) {
            if (waiter.granted.trySuccess(false)) {
                waiter.handOver.accept(connection);
            } else {
                makeIdle(connection);
            }
            return;
        }
        // The oldest waiter wants another user or lives on another event loop, where this
        // connection cannot follow: the slot is what it needs, so this connection closes.
        connection.quit();
        grant(waiter);
    }

    /** The longest-waiting session this connection can serve as it is; called under the lock. */
    private Waiter firstTaking(BackendConnection connection) {
        for (Waiter candidate : waiters) {
            if (candidate.takes(connection)) {
                return candidate;
            }
        }
        return null;
    }

    private BackendConnection takeIdle(PoolKey key, String schema, EventLoop loop) {
        lock.lock();
        try {
            ArrayDeque<BackendConnection> candidates = idle.get(key);
            if (candidates == null) {
                return null;
            }
            BackendConnection fallback = null;
            for (Iterator<BackendConnection> it = candidates.descendingIterator(); it.hasNext(); ) {
                BackendConnection candidate = it.next();
                if (candidate.channel().eventLoop() != loop || !candidate.isUsable()) {
                    continue;
                }
                boolean sameSchema = java.util.Objects.equals(candidate.schema(), schema);
                if (sameSchema) {
                    it.remove();
                    idleCount--;
                    return candidate;
                }
                // A schema can be selected but never unselected; split-mode connections replay
                // the session's whole state, so any of them will do.
                if (fallback == null && (schema != null || candidate.framed())) {
                    fallback = candidate;
                }
            }
            if (fallback != null) {
                candidates.remove(fallback);
                idleCount--;
            }
            return fallback;
        } finally {
            lock.unlock();
        }
    }

    private BackendConnection oldestIdle() {
        BackendConnection oldest = null;
        for (ArrayDeque<BackendConnection> connections : idle.values()) {
            BackendConnection first = connections.peekFirst();
            if (first != null && (oldest == null || first.idleSinceNanos() < oldest.idleSinceNanos())) {
                oldest = first;
            }
        }
        if (oldest != null) {
            idle.get(oldest.poolKey()).remove(oldest);
            idleCount--;
        }
        return oldest;
    }

    private void selectSchema(BackendConnection connection, String schema, Promise<BackendConnection> result) {
        if (schema == null || schema.equals(connection.schema())) {
            if (!result.trySuccess(connection)) {
                release(connection);
            }
            return;
        }
        connection.sendOwn(OwnCommands.initDb(connection.channel().alloc(), schema), Commands.COM_INIT_DB,
                (Response response) -> {
            if (response.isError()) {
                result.tryFailure(new BackendLoginException(response.errorCode(),
                        response.sqlState() == null ? "HY000" : response.sqlState(), response.errorMessage(), true));
                release(connection);
                return;
            }
            connection.schema(schema);
            if (!result.trySuccess(connection)) {
                release(connection);
            }
        });
    }

    /** A connection closed (or failed to open): its slot goes to the oldest waiter, if any. */
    public void slotFreed() {
        Waiter waiter;
        lock.lock();
        try {
            waiter = waiters.pollFirst();
            if (waiter == null) {
                backend.openConnections().decrementAndGet();
                return;
            }
            progressNanos = System.nanoTime();
        } finally {
            lock.unlock();
        }
        grant(waiter);
    }

    private void grant(Waiter waiter) {
        if (waiter.timeout != null) {
            waiter.timeout.cancel(false);
        }
        if (!waiter.granted.trySuccess(true)) {
            slotFreed();
        }
    }

    private void onClosed(BackendConnection connection) {
        lock.lock();
        try {
            ArrayDeque<BackendConnection> connections = idle.get(connection.poolKey());
            if (connections != null && connections.remove(connection)) {
                idleCount--;
            }
        } finally {
            lock.unlock();
        }
        if (!connection.slotHandedOver()) {
            slotFreed();
        }
    }

    /** Closes idle connections unused for longer than {@code maxIdle}; called periodically. */
    public void evictIdle(Duration maxIdle) {
        long cutoff = System.nanoTime() - maxIdle.toNanos();
        List<BackendConnection> evicted = new ArrayList<>();
        lock.lock();
        try {
            for (ArrayDeque<BackendConnection> connections : idle.values()) {
                while (!connections.isEmpty() && connections.peekFirst().idleSinceNanos() - cutoff < 0) {
                    evicted.add(connections.pollFirst());
                    idleCount--;
                }
            }
        } finally {
            lock.unlock();
        }
        for (BackendConnection connection : evicted) {
            connection.channel().eventLoop().execute(connection::quit);
        }
    }

    /** Stops handing out connections and closes the idle ones. */
    public void close() {
        List<BackendConnection> all = new ArrayList<>();
        List<Waiter> waiting;
        lock.lock();
        try {
            closed = true;
            idle.values().forEach(all::addAll);
            idle.clear();
            idleCount = 0;
            waiting = new ArrayList<>(waiters);
            waiters.clear();
        } finally {
            lock.unlock();
        }
        all.forEach(c -> c.channel().eventLoop().execute(c::quit));
        waiting.forEach(w -> w.granted.tryFailure(unavailable("the proxy is shutting down")));
    }

    private BackendLoginException capReached(String detail) {
        return new BackendLoginException(1040, "08004", "Too many connections: backend " + backend.name()
                + " is at its max_connections (" + backend.config().maxConnections() + ") " + detail, true);
    }

    private BackendLoginException unavailable(String why) {
        return new BackendLoginException(1053, "08S01", "backend " + backend.name() + " unavailable: " + why, true);
    }
}
