package dev.sluice.proxy.admin;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Bounds one admin port: at most {@link #MAX} connections at once, each closed when idle for
 * its port's timeout. The admin ports share the process's open-file limit with the proxy's own,
 * so a client that opens connections and leaves them must not starve it.
 */
@ChannelHandler.Sharable
final class AdminConnectionLimit extends ChannelInboundHandlerAdapter {

    /** Connections one admin port takes at once. */
    static final int MAX = 64;

    private final AtomicInteger open = new AtomicInteger();
    private final Duration idle;
    private final Consumer<ChannelHandlerContext> refuse;

    /** {@code refuse} answers a connection over the cap (the port's own way of saying "too many") and closes it. */
    AdminConnectionLimit(Duration idle, Consumer<ChannelHandlerContext> refuse) {
        this.idle = idle;
        this.refuse = refuse;
    }

    /** Adds the limit, and the idle timer, in front of a new connection's handlers. */
    void install(io.netty.channel.Channel channel) {
        channel.pipeline().addFirst("idle", new IdleStateHandler(0, 0, idle.toMillis(), TimeUnit.MILLISECONDS));
        channel.pipeline().addAfter("idle", "limit", this);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (open.incrementAndGet() > MAX) {
            refuse.accept(ctx);
            return;
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        open.decrementAndGet();
        ctx.fireChannelInactive();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            ctx.close();
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    int open() {
        return open.get();
    }
}
