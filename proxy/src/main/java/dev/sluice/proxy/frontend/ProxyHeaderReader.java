package dev.sluice.proxy.frontend;

import dev.sluice.proxy.client.ClientOrigin;
import dev.sluice.proxy.command.Replies;
import dev.sluice.proxy.stats.ProxyStats;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.haproxy.HAProxyCommand;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;
import io.netty.handler.codec.haproxy.HAProxyProxiedProtocol;
import io.netty.util.NetUtil;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Behind Netty's {@link HAProxyMessageDecoder} on a connection from a trusted load balancer
 * (proxy_protocol_networks): holds the connection back from the rest of the pipeline (no
 * greeting, no connection count) until the PROXY v1 or v2 header has named the real client, then
 * records it as the connection's {@link ClientOrigin} and lets the connection start. A header
 * that does not parse, or is longer than {@link #MAX_TLV_BYTES} of extensions, closes the
 * connection; a connection that sends none within the handshake timeout is refused with ERR 1130
 * in place of the greeting. Both are logged with the balancer's address.
 */
public final class ProxyHeaderReader extends ChannelInboundHandlerAdapter {

    /**
     * The TLV bytes a v2 header may carry beyond its addresses: haproxy's unique-id, ALPN and TLS
     * details and the cloud balancers' endpoint ids fit many times over; the decoder refuses a
     * header that claims more as soon as that much has arrived.
     */
    public static final int MAX_TLV_BYTES = 1024;

    private static final Logger log = LoggerFactory.getLogger(ProxyHeaderReader.class);

    private final Duration timeout;
    private final ProxyStats stats;
    private ScheduledFuture<?> deadline;
    /** The balancer, for the log: a closed channel no longer knows its peer. */
    private String peer;
    private boolean started;
    private boolean refused;

    public ProxyHeaderReader(Duration timeout, ProxyStats stats) {
        this.timeout = timeout;
        this.stats = stats;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        // Not passed on yet: the greeting waits for the header.
        peer = ClientOrigin.of(ctx.channel()).describe();
        deadline = ctx.executor().schedule(() -> noHeader(ctx), timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (started) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            if (!(msg instanceof HAProxyMessage header)) {
                throw new IllegalStateException("expected the decoded PROXY header, got " + msg.getClass().getName());
            }
            ClientOrigin origin = origin(header);
            if (origin != null) {
                ClientOrigin.set(ctx.channel(), origin);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
        cancelDeadline();
        started = true;
        ctx.fireChannelActive();
        // Whatever followed the header reaches the next handler once the decoder removes itself.
        ctx.pipeline().remove(this);
    }

    /**
     * The client a header names: TCP over IPv4 or IPv6 (UDP too, whose addresses mean the same);
     * null, keeping the balancer's own address, for a LOCAL header (a balancer's health check) or
     * an UNKNOWN or unix-socket one, which name no IP client.
     */
    static ClientOrigin origin(HAProxyMessage header) {
        if (header.command() != HAProxyCommand.PROXY) {
            return null;
        }
        HAProxyProxiedProtocol.AddressFamily family = header.proxiedProtocol().addressFamily();
        if (family != HAProxyProxiedProtocol.AddressFamily.AF_IPv4 && family != HAProxyProxiedProtocol.AddressFamily.AF_IPv6) {
            return null;
        }
        return new ClientOrigin(socket(header.sourceAddress(), header.sourcePort()),
                socket(header.destinationAddress(), header.destinationPort()));
    }

    private static InetSocketAddress socket(String literal, int port) {
        // The decoder has checked the text is an address of the header's family; this never looks it up.
        InetAddress address = NetUtil.createInetAddressFromIpAddressString(literal);
        return new InetSocketAddress(address, port);
    }

    private void noHeader(ChannelHandlerContext ctx) {
        if (started || refused || !ctx.channel().isActive()) {
            return;
        }
        refused = true;
        stats.protocolError();
        String host = ClientOrigin.of(ctx.channel()).host();
        log.warn("refused {}: it is in proxy_protocol_networks but sent no complete PROXY protocol header within {} ms",
                peer, timeout.toMillis());
        // In place of the greeting, as MySQL refuses a host: a MySQL client that connected
        // directly (it waits for the greeting, so it could never send a header) shows why.
        ctx.writeAndFlush(Replies.err(ctx.alloc(), 0, Replies.HOST_NOT_ALLOWED, "HY000", "Host '" + host
                + "' is not allowed to connect without a PROXY protocol header: it is in proxy_protocol_networks"))
                .addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (started) {
            ctx.fireExceptionCaught(cause);
            return;
        }
        // The decoder has closed the connection already, as the PROXY protocol specification asks.
        ctx.close();
        cancelDeadline();
        if (refused) {
            // The decoder reads what was left once more as the connection closes: one refusal is enough.
            return;
        }
        refused = true;
        stats.protocolError();
        Throwable reason = cause.getCause() != null && cause instanceof io.netty.handler.codec.DecoderException
                ? cause.getCause() : cause;
        log.warn("refused {}: malformed PROXY protocol header: {}", peer, reason.getMessage());
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cancelDeadline();
        if (started) {
            ctx.fireChannelInactive();
        } else {
            // Balancers' plain TCP checks connect and close: not worth a warning.
            log.debug("{} closed before its PROXY protocol header", peer);
        }
    }

    private void cancelDeadline() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }
}
