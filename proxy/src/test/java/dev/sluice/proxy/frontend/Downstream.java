package dev.sluice.proxy.frontend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;

/** The rest of a client pipeline, as far as a test needs it: what reached it, in order; bytes kept as hex, released. */
final class Downstream extends ChannelInboundHandlerAdapter {

    final List<String> events = new ArrayList<>();
    private final StringBuilder bytes = new StringBuilder();

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        events.add("active");
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            bytes.append(ByteBufUtil.hexDump((ByteBuf) msg));
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        events.add("inactive");
    }

    /** Every byte read so far, in hex. */
    String bytes() {
        return bytes.toString();
    }
}
