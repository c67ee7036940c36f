package dev.sluice.proxy.backend;

import dev.sluice.proxy.client.ClientOrigin;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.haproxy.HAProxyCommand;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyMessageEncoder;
import io.netty.handler.codec.haproxy.HAProxyProtocolVersion;
import io.netty.handler.codec.haproxy.HAProxyProxiedProtocol;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Starts a backend connection with a PROXY protocol v2 header naming the client it is opened for
 * (backends[].send_proxy_protocol), so the backend's grants and processlist see that client, not
 * the proxy. Written as soon as the connection is up, before the server's greeting is read, as
 * haproxy does; then this handler leaves the pipeline.
 */
public final class ProxyHeaderWriter extends ChannelInboundHandlerAdapter {

    private final ClientOrigin origin;

    public ProxyHeaderWriter(ClientOrigin origin) {
        this.origin = origin;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ctx.pipeline().addFirst("proxy-header-encoder", HAProxyMessageEncoder.INSTANCE);
        ctx.writeAndFlush(header(origin));
        ctx.pipeline().remove(HAProxyMessageEncoder.INSTANCE);
        ctx.pipeline().remove(this);
        ctx.fireChannelActive();
    }

    /**
     * PROXY with TCP over IPv4 when both ends are IPv4, else over IPv6 (an IPv4 end written as
     * {@code ::ffff:a.b.c.d}, as the specification allows); LOCAL, which names no one, for a client
     * without an IP address.
     */
    static HAProxyMessage header(ClientOrigin origin) {
        if (!(origin.source() instanceof InetSocketAddress source && source.getAddress() != null)
                || !(origin.destination() instanceof InetSocketAddress destination && destination.getAddress() != null)) {
            return new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.LOCAL, HAProxyProxiedProtocol.UNKNOWN,
                    null, null, 0, 0);
        }
        boolean ipv4 = source.getAddress() instanceof Inet4Address && destination.getAddress() instanceof Inet4Address;
        return new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.PROXY,
                ipv4 ? HAProxyProxiedProtocol.TCP4 : HAProxyProxiedProtocol.TCP6,
                text(source.getAddress(), ipv4), text(destination.getAddress(), ipv4), source.getPort(), destination.getPort());
    }

    private static String text(InetAddress address, boolean ipv4) {
        if (ipv4 || !(address instanceof Inet4Address)) {
            return address.getHostAddress();
        }
        return "::ffff:" + address.getHostAddress();
    }
}
