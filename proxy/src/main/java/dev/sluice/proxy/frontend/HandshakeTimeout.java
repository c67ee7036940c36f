package dev.sluice.proxy.frontend;

import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Bounds the connection phase, so half-open or stalled logins cannot pile up. Once the session
 * starts, client_idle is its command phase's to watch.
 */
public final class HandshakeTimeout {

    /** Fired through the pipeline when the login did not finish in time. */
    public static final Object EXPIRED = new Object() {
        @Override
        public String toString() {
            return "HandshakeTimeout.EXPIRED";
        }
    };

    private final Duration handshake;
    private ScheduledFuture<?> task;

    public HandshakeTimeout(Duration handshake) {
        this.handshake = handshake;
    }

    public void start(ChannelHandlerContext ctx) {
        task = ctx.executor().schedule(() -> ctx.pipeline().fireUserEventTriggered(EXPIRED),
                handshake.toMillis(), TimeUnit.MILLISECONDS);
    }

    public void cancel() {
        if (task != null) {
            task.cancel(false);
            task = null;
        }
    }
}
