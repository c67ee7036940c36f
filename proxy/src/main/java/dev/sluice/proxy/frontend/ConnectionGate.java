package dev.sluice.proxy.frontend;

import dev.sluice.proxy.command.Replies;
import dev.sluice.proxy.session.SessionServices;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * First handler of every client connection: counts it against max_client_connections and answers
 * the one too many with ERR 1040 (sequence id 0, in place of the greeting, as MySQL does).
 */
public final class ConnectionGate extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ConnectionGate.class);

    private final SessionServices services;
    private boolean counted;

    public ConnectionGate(SessionServices services) {
        this.services = services;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        int max = services.config().get().limits().maxClientConnections();
        int now = services.clients().count().incrementAndGet();
        counted = true;
        if (now > max || services.clients().shuttingDown()) {
            services.stats().refused();
            ctx.channel().config().setAutoRead(false);
            String message = services.clients().shuttingDown() ? "Server shutdown in progress" : "Too many connections";
            int code = services.clients().shuttingDown() ? Replies.SHUTDOWN_IN_PROGRESS : Replies.TOO_MANY_CONNECTIONS;
            ctx.writeAndFlush(Replies.err(ctx.alloc(), 0, code, "08004", message))
                    .addListener(ChannelFutureListener.CLOSE);
            if (now == max + 1) {
                log.warn("refusing client connections: max_client_connections ({}) reached", max);
            }
            return;
        }
        services.stats().accepted();
        services.clients().channels().add(ctx.channel());
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (counted) {
            counted = false;
            services.clients().count().decrementAndGet();
        }
        ctx.fireChannelInactive();
    }
}
