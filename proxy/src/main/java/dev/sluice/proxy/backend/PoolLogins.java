package dev.sluice.proxy.backend;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The logins a pool starts for acquisitions that found no idle connection on their event loop.
 * An acquisition waits for whichever comes first, a connection given back on its loop or one
 * newly logged in, and a login starts only for an acquisition no login under way covers, at
 * most {@link #PER_LOOP} at once per loop. A burst of short statements (split mode) is then served
 * mostly by the connections it already holds as they come back: 1000 clients' first statements
 * held up to 1482 backend connections when each opened its own, 116 now. A burst of sessions gets
 * a login for each session no connection coming back serves, never more than {@link #PER_LOOP}
 * per loop at once, which the server takes better than a thousand thread creations at a time.
 */
final class PoolLogins {

    /**
     * 1000 mariadb-slap clients connecting at once (key load, one MariaDB on the same 2 cores):
     * 4 or 8 per loop took the burst in 0.9-1.0 s warm with 110-270 backend connections at peak;
     * 32 in 1.0-1.2 s with 260-610; no limit in 1.0-1.2 s with 750-1000.
     */
    static final int PER_LOOP = 8;

    private final BackendPool pool;
    private final Connector connector;
    private final Map<EventLoop, LoopDemand> byLoop = new ConcurrentHashMap<>();
    private final LongAdder made = new LongAdder();
    private final AtomicInteger waiting = new AtomicInteger();

    PoolLogins(BackendPool pool, Connector connector) {
        this.pool = pool;
        this.connector = connector;
    }

    /** How many acquisitions wait on the loops for a connection (not those in the pool's queue). */
    int waiting() {
        return waiting.get();
    }

    /** How many connections this pool logged in. */
    long count() {
        return made.sum();
    }

    /** On {@code loop}: {@code acquisition} waits there, and a login starts for it if it may. */
    void await(LoopDemand.Waiting acquisition, EventLoop loop) {
        LoopDemand demand = on(loop);
        demand.add(acquisition);
        acquisition.result().addListener(done -> {
            if (done.isCancelled()) {
                demand.remove(acquisition);
            }
        });
        startLogins(loop, demand);
    }

    /** On its loop: the oldest acquisition waiting there that {@code connection} serves, taken out; null when none is. */
    LoopDemand.Waiting next(BackendConnection connection) {
        if (waiting.get() == 0) {
            // Every split statement gives its connection back through here: one read when no one waits.
            return null;
        }
        LoopDemand demand = byLoop.get(connection.channel().eventLoop());
        return demand == null ? null : demand.poll(connection);
    }

    /** Fails, each on its loop, every acquisition waiting (the pool closes). */
    void close(BackendLoginException why) {
        byLoop.forEach((loop, demand) -> loop.execute(() -> demand.drainAll().forEach(w -> w.result().tryFailure(why))));
    }

    private void startLogins(EventLoop loop, LoopDemand demand) {
        for (LoopDemand.Waiting uncovered = demand.uncovered(); uncovered != null; uncovered = demand.uncovered()) {
            if (demand.loginsUnderWay() >= PER_LOOP) {
                return;
            }
            if (!pool.slotNow()) {
                // At max_connections: the pool's queue, with its order, limits and timeouts, takes
                // every acquisition no login covers.
                for (; uncovered != null; uncovered = demand.uncovered()) {
                    demand.remove(uncovered);
                    pool.queueFor(uncovered.request(), uncovered.key(), loop, uncovered.result());
                }
                return;
            }
            LoopDemand.Waiting forWhom = uncovered;
            demand.loginStarted(forWhom.key());
            connector.connect(pool.backend(), forWhom.request(), loop)
                    .addListener(done -> loginEnded(loop, demand, forWhom, done));
        }
    }

    private void loginEnded(EventLoop loop, LoopDemand demand, LoopDemand.Waiting forWhom,
                            Future<? super BackendConnection> done) {
        demand.loginEnded(forWhom.key());
        if (done.isSuccess()) {
            BackendConnection connection = counted((BackendConnection) done.getNow(), forWhom.key());
            if (!pool.servedWaiting(connection)) {
                pool.makeIdle(connection);
            }
        } else {
            pool.slotFreed();
            fail(demand, forWhom, done.cause());
        }
        startLogins(loop, demand);
    }

    /**
     * The server's refusal (a wrong password, an unknown schema, its own 1040) fails the
     * acquisition the login was for; a backend that cannot be reached fails every acquisition of
     * the key waiting on the loop, which would each wait out the same timeout otherwise.
     */
    private static void fail(LoopDemand demand, LoopDemand.Waiting forWhom, Throwable cause) {
        if (cause instanceof BackendLoginException e && e.refusedByServer()) {
            if (demand.remove(forWhom)) {
                forWhom.result().tryFailure(cause);
            }
            return;
        }
        for (LoopDemand.Waiting waiting : demand.drain(forWhom.key())) {
            waiting.result().tryFailure(cause);
        }
    }

    /** A login for {@code result} alone, with a slot the pool's queue granted it. */
    void open(LoginRequest request, PoolKey key, EventLoop loop, Promise<BackendConnection> result) {
        connector.connect(pool.backend(), request, loop).addListener(connected -> {
            if (!connected.isSuccess()) {
                pool.slotFreed();
                result.tryFailure(connected.cause());
                return;
            }
            BackendConnection connection = counted((BackendConnection) connected.getNow(), key);
            if (!result.trySuccess(connection)) {
                pool.release(connection);
            }
        });
    }

    private BackendConnection counted(BackendConnection connection, PoolKey key) {
        made.increment();
        connection.poolKey(key);
        connection.channel().closeFuture().addListener(closed -> pool.onClosed(connection));
        return connection;
    }

    private LoopDemand on(EventLoop loop) {
        LoopDemand demand = byLoop.get(loop);
        return demand != null ? demand : byLoop.computeIfAbsent(loop, l -> new LoopDemand(waiting));
    }
}
