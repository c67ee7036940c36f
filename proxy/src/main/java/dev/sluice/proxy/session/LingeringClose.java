package dev.sluice.proxy.session;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.netty.channel.socket.DuplexChannel;
import java.util.concurrent.TimeUnit;

/**
 * Sends a last packet and closes without losing it. Closing a socket that still has unread input
 * makes the kernel send RST, and a client still writing (a large command, pipelined statements)
 * then loses the ERR that explains why. So: send, half-close, keep reading (callers discard what
 * comes) until the client closes or a grace period ends.
 */
public final class LingeringClose {

    private static final long GRACE_MILLIS = 2_000;

    private static final ChannelHandler DISCARD = new Discard();

    private LingeringClose() {
    }

    @ChannelHandler.Sharable
    private static final class Discard extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    public static void afterSending(Channel channel, ByteBuf lastPacket) {
        // From here on input is only drained, never parsed.
        if (channel.pipeline().get("frames") != null) {
            channel.pipeline().replace("frames", "discard", DISCARD);
        }
        channel.config().setAutoRead(true);
        channel.writeAndFlush(lastPacket).addListener((ChannelFutureListener) written -> {
            if (!(channel instanceof DuplexChannel duplex) || !written.isSuccess()) {
                channel.close();
                return;
            }
            duplex.shutdownOutput();
            channel.eventLoop().schedule(() -> {
                channel.close();
            }, GRACE_MILLIS, TimeUnit.MILLISECONDS);
        });
    }
}
