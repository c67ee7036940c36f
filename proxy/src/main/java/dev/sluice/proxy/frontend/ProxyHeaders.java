package dev.sluice.proxy.frontend;

import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.stats.ProxyStats;
import io.netty.channel.Channel;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;
import java.net.InetSocketAddress;

/** Where a new client connection's PROXY protocol header is read, or refused. */
public final class ProxyHeaders {

    private ProxyHeaders() {
    }

    /**
     * Puts the first handlers of a client pipeline in place: from proxy_protocol_networks, the
     * header's decoder and {@link ProxyHeaderReader}; from anywhere else, {@link ProxyHeaderGuard}.
     */
    public static void install(Channel channel, SluiceConfig config, ProxyStats stats) {
        boolean trusted = channel.remoteAddress() instanceof InetSocketAddress peer
                && config.proxyProtocolTrusted(peer.getAddress());
        if (trusted) {
            channel.pipeline().addLast("proxy-header", new HAProxyMessageDecoder(ProxyHeaderReader.MAX_TLV_BYTES));
            channel.pipeline().addLast("proxy-origin", new ProxyHeaderReader(config.timeouts().handshake(), stats));
        } else {
            channel.pipeline().addLast("proxy-guard", new ProxyHeaderGuard(stats));
        }
    }
}
