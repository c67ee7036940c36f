package dev.sluice.proxy.frontend;

import dev.sluice.proxy.client.ClientOrigin;
import dev.sluice.proxy.command.Replies;
import dev.sluice.proxy.session.LingeringClose;
import dev.sluice.proxy.stats.ProxyStats;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At the head of a connection from outside proxy_protocol_networks until its first bytes: a PROXY
 * protocol header there is a claim to be someone else that nobody vouches for, so it is refused
 * (ERR 1130) and logged. A MySQL client's first packet can never be mistaken for one: its
 * sequence id is 1, where a header's fourth byte is {@code X} or {@code \r}. Anything else goes on
 * untouched, and this handler leaves the pipeline.
 */
public final class ProxyHeaderGuard extends ByteToMessageDecoder {

    private static final Logger log = LoggerFactory.getLogger(ProxyHeaderGuard.class);

    /** v1 starts with "PROXY " (the specification's "PROXY" and a space). */
    private static final byte[] V1 = "PROXY ".getBytes(StandardCharsets.US_ASCII);
    /** v2's 12-byte signature: CR LF CR LF NUL CR LF "QUIT" LF. */
    private static final byte[] V2 = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    private final ProxyStats stats;
    private boolean refused;

    public ProxyHeaderGuard(ProxyStats stats) {
        this.stats = stats;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (refused) {
            in.skipBytes(in.readableBytes());
            return;
        }
        Match v1 = match(in, V1);
        Match v2 = match(in, V2);
        if (v1 == Match.NO && v2 == Match.NO) {
            ctx.pipeline().remove(this);
            return;
        }
        if (v1 == Match.FULL || v2 == Match.FULL) {
            refuse(ctx, v1 == Match.FULL ? "v1" : "v2");
            in.skipBytes(in.readableBytes());
        }
        // else: a prefix of a header so far; wait for more.
    }

    private enum Match { NO, PREFIX, FULL }

    private static Match match(ByteBuf in, byte[] signature) {
        int available = Math.min(in.readableBytes(), signature.length);
        for (int i = 0; i < available; i++) {
            if (in.getByte(in.readerIndex() + i) != signature[i]) {
                return Match.NO;
            }
        }
        return available == signature.length ? Match.FULL : Match.PREFIX;
    }

    private void refuse(ChannelHandlerContext ctx, String version) {
        refused = true;
        stats.protocolError();
        ClientOrigin origin = ClientOrigin.of(ctx.channel());
        log.warn("refused {}: it sent a PROXY protocol {} header but is not in proxy_protocol_networks", origin.describe(),
                version);
        // The greeting is out already; a client behind such a balancer answered it (sequence id 1)
        // and reads this as the answer to its login.
        LingeringClose.afterSending(ctx.channel(), Replies.err(ctx.alloc(), 2, Replies.HOST_NOT_ALLOWED, "HY000",
                "Host '" + origin.host() + "' is not allowed to send a PROXY protocol header: it is not in"
                        + " proxy_protocol_networks"));
    }
}
