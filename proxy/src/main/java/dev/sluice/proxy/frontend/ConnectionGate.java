package dev.sluice.proxy.frontend;

import dev.sluice.proxy.ProxyRuntime;
import dev.sluice.proxy.command.Replies;
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

    private final ProxyRuntime runtime;
    private boolean counted;

    public ConnectionGate(ProxyRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        int max = runtime.config().limits().maxClientConnections();
        int now = runtime.clientConnections().incrementAndGet();
        counted = true;
        if (now > max || runtime.shuttingDown()) {
            runtime.stats().refused();
            ctx.channel().config().setAutoRead(false);
            String message = runtime.shuttingDown() ? "Server shutdown in progress" : "Too many connections";
            int code = runtime.shuttingDown() ? Replies.SHUTDOWN_IN_PROGRESS : Replies.TOO_MANY_CONNECTIONS;
            ctx.writeAndFlush(Replies.err(ctx.alloc(), 0, code, "08004", message))
                    .addListener(ChannelFutureListener.CLOSE);
            if (now == max + 1) {
                log.warn("refusing client connections: max_client_connections ({}) reached", max);
            }
            return;
        }
        runtime.stats().accepted();
        runtime.clients().add(ctx.channel());
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (counted) {
            counted = false;
            runtime.clientConnections().decrementAndGet();
        }
        ctx.fireChannelInactive();
    }
}
