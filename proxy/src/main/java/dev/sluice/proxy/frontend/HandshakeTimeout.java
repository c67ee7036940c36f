package dev.sluice.proxy.frontend;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Bounds the connection phase, so half-open or stalled logins cannot pile up, and once the
 * session starts puts the client_idle timeout in place.
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
    private final Duration clientIdle;
    private ScheduledFuture<?> task;

    public HandshakeTimeout(Duration handshake, Duration clientIdle) {
        this.handshake = handshake;
        this.clientIdle = clientIdle;
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

    /**
     * Watches for an idle client from now on; the session decides what idle means. Only reads are
     * watched: a client that sends nothing is idle, and watching writes too would cost a promise
     * and a listener on every write.
     */
    public void sessionStarted(ChannelHandlerContext ctx) {
        ctx.pipeline().addFirst("idle", new IdleStateHandler(clientIdle.toMillis(), 0, 0, TimeUnit.MILLISECONDS));
    }
}
