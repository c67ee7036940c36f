package dev.sluice.proxy.backend;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.function.Consumer;

/**
 * A session waiting for room under max_connections: either a slot to open its own connection
 * (the promise completes with true), or, when it wants a pooled connection, an idle one of its
 * key on its event loop handed over directly (the promise completes with false).
 */
final class PoolWaiter {

    final EventLoop loop;
    /** Null for a slot alone (a pass-through session opens and logs in its own connection). */
    final PoolKey key;
    final Consumer<BackendConnection> handOver;
    final Promise<Boolean> granted;
    final long sinceNanos;
    ScheduledFuture<?> timeout;

    PoolWaiter(EventLoop loop, PoolKey key, Consumer<BackendConnection> handOver, long sinceNanos) {
        this.sinceNanos = sinceNanos;
        this.loop = loop;
        this.key = key;
        this.handOver = handOver;
        this.granted = loop.newPromise();
    }

    /** Whether {@code connection} serves this waiter as it is: same account and settings, same loop. */
    boolean takes(BackendConnection connection) {
        return handOver != null && key.equals(connection.poolKey()) && loop == connection.channel().eventLoop();
    }

    void cancelTimeout() {
        if (timeout != null) {
            timeout.cancel(false);
        }
    }
}
