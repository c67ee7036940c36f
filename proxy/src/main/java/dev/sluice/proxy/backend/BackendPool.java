package dev.sluice.proxy.backend;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.response.Response;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.Ticker;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The backend connections of one backend, for all users and event loops, made for a connection
 * per statement (split mode) as much as per session. Connections stay on the event loop that
 * opened them, and each loop keeps its own idle ones ({@link IdleConnections}): a session takes
 * one of its own loop's and gives it back there, and the loops share no lock on that path. At
 * most {@code max_connections} are open (or opening) at once, counted atomically across loops;
 * beyond that an idle connection elsewhere closes to make room, or sessions wait in a bounded
 * queue ({@link PoolQueue}), served in order, as a server serves more clients than it has
 * threads: slower, never refused while the backend gets through its work. Below the cap, an
 * acquisition that finds no idle connection waits for the first to come on its loop, one given
 * back or one logged in for it ({@link PoolLogins}). In session mode a connection given back is
 * reset (COM_RESET_CONNECTION) before anyone else gets it.
 */
public final class BackendPool {

    /** An idle connection beyond {@link #keptIdle} closes once unused for this long. */
    static final long SURPLUS_IDLE_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(1);

    private final Backend backend;
    private final IdleConnections idle = new IdleConnections();
    private final PoolQueue queue;
    private final PoolLogins logins;
    private volatile boolean closed;
    /** Sessions and statements served by an idle connection, and by one opened (logged in) for them. */
    private final LongAdder reused = new LongAdder();

    public BackendPool(Backend backend, Connector connector, int queueSize, Duration queueTimeout) {
        this(backend, connector, queueSize, queueTimeout, Ticker.systemTicker());
    }

    /** {@code ticker}: the clock queue timeouts are measured by (a test's own). */
    BackendPool(Backend backend, Connector connector, int queueSize, Duration queueTimeout, Ticker ticker) {
        this.backend = backend;
        this.queue = new PoolQueue(queueSize, queueTimeout, this::capReached,
                () -> unavailable("the proxy is shutting down"), ticker);
        this.logins = new PoolLogins(this, connector);
    }

    public Backend backend() {
        return backend;
    }

    /** A reload's limits.backend_queue_size and timeouts.backend_queue; sessions already waiting keep their place. */
    public void queueLimits(int size, Duration timeout) {
        queue.limits(size, timeout);
    }

    public int idleCount() {
        return idle.count();
    }

    /** Sessions and statements waiting for a connection: below the cap on their loops, at it in the queue. */
    public int waiting() {
        return queue.size() + logins.waiting();
    }

    /** How many times an idle connection was handed out instead of a new login. */
    public long reusedCount() {
        return reused.sum();
    }

    /** How many connections this pool logged in. */
    public long loginCount() {
        return logins.count();
    }

    /**
     * A logged-in connection for {@code request} on {@code loop}, with {@code request.schema()}
     * selected: an idle one of that loop's when there is one. Fails with a
     * {@link BackendLoginException}. Cancelling the future takes the caller out of the wait queue;
     * a connection that comes for it all the same goes back to the pool.
     */
    public Future<BackendConnection> acquire(LoginRequest request, EventLoop loop) {
        Promise<BackendConnection> result = loop.newPromise();
        if (loop.inEventLoop()) {
            acquireOnLoop(request, loop, result);
        } else {
            loop.execute(() -> acquireOnLoop(request, loop, result));
        }
        return result;
    }

    /**
     * What {@link #acquire} would give at once, for a caller on {@code loop} whose request names no
     * schema: an idle connection of that loop's, or null (then acquire gets one). One of
     * {@code preferred} if any is idle, else the one idle longest; with {@code preferred} null,
     * the one used last.
     */
    public BackendConnection takeIdle(LoginRequest request, EventLoop loop,
                                      Collection<? extends BackendConnection> preferred) {
        BackendConnection taken = request.schema() == null && loop.inEventLoop() ? idle.take(loop, key(request), preferred)
                : null;
        if (taken != null) {
            reused.increment();
        }
        return taken;
    }

    /** Towards a backend sent PROXY protocol headers, connections are shared per client address too. */
    private PoolKey key(LoginRequest request) {
        return PoolKey.of(request, backend.config().sendProxyProtocol());
    }

    private void acquireOnLoop(LoginRequest request, EventLoop loop, Promise<BackendConnection> result) {
        PoolKey key = key(request);
        BackendConnection idleOne = idle.take(loop, key, request.schema());
        if (idleOne != null) {
            reused.increment();
            selectSchema(idleOne, request.schema(), result);
        } else if (queue.isEmpty()) {
            logins.await(new LoopDemand.Waiting(key, request, result), loop);
        } else {
            queueFor(request, key, loop, result);
        }
    }

    /** At max_connections: the acquisition waits in the queue for a connection of its own or one handed over. */
    void queueFor(LoginRequest request, PoolKey key, EventLoop loop, Promise<BackendConnection> result) {
        PoolWaiter waiter = new PoolWaiter(loop, key, handedOver -> selectSchema(handedOver, request.schema(), result),
                queue.now());
        result.addListener(done -> {
            if (done.isCancelled()) {
                queue.withdraw(waiter);
            }
        });
        reserve(waiter).addListener(granted -> {
            if (!granted.isSuccess()) {
                result.tryFailure(granted.cause());
            } else if (Boolean.TRUE.equals(granted.getNow())) {
                logins.open(request, key, loop, result);
            }
        });
    }

    /** On the connection's loop: the oldest acquisition waiting there that it can serve takes it. */
    boolean servedWaiting(BackendConnection connection) {
        LoopDemand.Waiting waiting = logins.next(connection);
        if (waiting == null) {
            return false;
        }
        selectSchema(connection, waiting.request().schema(), waiting.result());
        return true;
    }

    /**
     * One slot under max_connections, for a connection the caller opens itself (pass-through
     * sessions); give it back with {@link #slotFreed()} when that connection closes.
     */
    public Future<Void> reserveSlot(EventLoop loop) {
        Promise<Void> slot = loop.newPromise();
        reserve(new PoolWaiter(loop, null, null, queue.now())).addListener(granted -> {
            if (granted.isSuccess()) {
                slot.setSuccess(null);
            } else {
                slot.setFailure(granted.cause());
            }
        });
        return slot;
    }

    /** A slot under max_connections at once, or none (someone waits in the queue, or the cap is reached). */
    boolean slotNow() {
        return !closed && queue.isEmpty() && takeSlot();
    }

    /** A slot: at once while the cap allows and no one waits (no lock), else through the queue. */
    private Future<Boolean> reserve(PoolWaiter waiter) {
        if (closed) {
            return waiter.loop.newFailedFuture(unavailable("the proxy is shutting down"));
        }
        if (slotNow()) {
            return waiter.loop.newSucceededFuture(true);
        }
        return queue.join(waiter, this::takeSlot, this::closeIdleForRoom);
    }

    /** One more connection open, unless that passes max_connections. */
    private boolean takeSlot() {
        AtomicInteger open = backend.openConnections();
        int max = backend.config().maxConnections();
        for (int now = open.get(); now < max; now = open.get()) {
            if (open.compareAndSet(now, now + 1)) {
                return true;
            }
        }
        return false;
    }

    /** At the cap: the connection idle longest, on any loop, closes, its slot going to {@code waiter}. */
    private boolean closeIdleForRoom(PoolWaiter waiter) {
        BackendConnection victim = idle.takeOldest();
        if (victim == null) {
            return false;
        }
        victim.channel().eventLoop().execute(() -> handSlotOver(victim, waiter));
        return true;
    }

    /**
     * {@code connection} closes and its slot goes to {@code waiter}, once it has closed: the backend
     * never sees more than max_connections of the proxy's connections at once.
     */
    private void handSlotOver(BackendConnection connection, PoolWaiter waiter) {
        connection.slotHandedOver(true);
        connection.channel().closeFuture().addListener(closed -> grant(waiter));
        connection.quit();
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
        connection.resetForNextSession(fit -> {
            if (fit) {
                connection.resetState();
                makeIdle(connection);
            } else {
                connection.quit();
            }
        });
    }

    /**
     * Split mode: gives a connection back without resetting it. Its session state is known (the
     * server tracks it), so the next session replays only what differs.
     */
    public void releaseTracked(TrackedConnection connection) {
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

    /** On the connection's loop: idle there, unless a session waits, which is then served first. */
    void makeIdle(BackendConnection connection) {
        if (closed) {
            // The pool closed while this connection was on its way back (its reset's reply came
            // after close() emptied the idle sets): nothing would take it or quit it from there.
            connection.quit();
            return;
        }
        if (connection.channel().eventLoop().inEventLoop() && servedWaiting(connection)) {
            reused.increment();
            return;
        }
        if (queue.isEmpty()) {
            idle.add(connection);
            if (closed && idle.remove(connection)) {
                connection.quit();
                return;
            }
            // A waiter that joined meanwhile may have looked for idle connections before this one
            // was there: it is served now, unless another thread took the connection for it.
            if (queue.isEmpty() || !idle.remove(connection)) {
                return;
            }
        }
        PoolQueue.Grant grant = queue.serve(connection);
        if (grant == null) {
            idle.add(connection);
        } else if (grant.direct()) {
            if (grant.waiter().granted.trySuccess(false)) {
                grant.waiter().handOver.accept(connection);
            } else {
                makeIdle(connection);
            }
        } else {
            // The longest waiter wants another user or lives on another event loop, where this
            // connection cannot follow: the slot is what it needs, so this connection closes.
            handSlotOver(connection, grant.waiter());
        }
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
        PoolWaiter waiter = queue.pollFor(() -> backend.openConnections().decrementAndGet());
        if (waiter != null) {
            grant(waiter);
        }
    }

    private void grant(PoolWaiter waiter) {
        if (!waiter.granted.trySuccess(true)) {
            slotFreed();
        }
    }

    void onClosed(BackendConnection connection) {
        idle.remove(connection);
        if (!connection.slotHandedOver()) {
            slotFreed();
        }
    }

    /**
     * Closes idle connections unused for longer than {@code maxIdle}, and those beyond the
     * {@link #keptIdle} ones unused for a second: a burst's connections go back to the server soon
     * after it, not after timeouts.pool_idle (others' logins meanwhile get 1040). Every second.
     */
    public void evictIdle(Duration maxIdle) {
        evictIdle(maxIdle, System.nanoTime());
    }

    void evictIdle(Duration maxIdle, long nowNanos) {
        idle.quitIdleSince(nowNanos - maxIdle.toNanos());
        idle.quitSurplus(keptIdle(), nowNanos - SURPLUS_IDLE_NANOS);
    }

    /** How many idle connections wait out timeouts.pool_idle: a tenth of max_connections, at least 8. */
    int keptIdle() {
        return Math.max(8, backend.config().maxConnections() / 10);
    }

    /** Stops handing out connections and closes the idle ones. */
    public void close() {
        closed = true;
        var waiting = queue.close();
        idle.quitAll();
        waiting.forEach(w -> w.granted.tryFailure(unavailable("the proxy is shutting down")));
        logins.close(unavailable("the proxy is shutting down"));
    }

    private BackendLoginException capReached(String detail) {
        return new BackendLoginException(1040, "08004", "Too many connections: backend " + backend.name()
                + " is at its max_connections (" + backend.config().maxConnections() + ") " + detail, true);
    }

    private BackendLoginException unavailable(String why) {
        return new BackendLoginException(1053, "08S01", "backend " + backend.name() + " unavailable: " + why, true);
    }
}
