package dev.sluice.proxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.proxy.client.ClientOrigin;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;
import io.netty.handler.codec.haproxy.HAProxyProxiedProtocol;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import org.junit.jupiter.api.Test;

/** The header a backend connection starts with when the backend has send_proxy_protocol. */
class ProxyHeaderWriterTest {

    @Test
    void tcp4HeaderByteForByte() {
        String written = firstWrite(new ClientOrigin(new InetSocketAddress("203.0.113.7", 51234),
                new InetSocketAddress("10.0.8.2", 4040)));

        assertThat(written).isEqualTo(
                "0d0a0d0a000d0a515549540a"   // signature
                + "21"                       // version 2, command PROXY
                + "11"                       // TCP over IPv4
                + "000c"                     // 12 address bytes
                + "cb007107"                 // source 203.0.113.7
                + "0a000802"                 // destination 10.0.8.2
                + "c822"                     // source port 51234
                + "0fc8");                   // destination port 4040
    }

    @Test
    void anIpv4ClientOfAnIpv6ListenerIsWrittenMapped() {
        HAProxyMessage header = decoded(new ClientOrigin(new InetSocketAddress("203.0.113.7", 51234),
                new InetSocketAddress("2001:db8::1", 4040)));
        try {
            assertThat(header.proxiedProtocol()).isEqualTo(HAProxyProxiedProtocol.TCP6);
            // ::ffff:203.0.113.7, as the decoder writes it out.
            assertThat(header.sourceAddress()).isEqualTo("0:0:0:0:0:ffff:cb00:7107");
            assertThat(header.destinationAddress()).isEqualTo("2001:db8:0:0:0:0:0:1");
            assertThat(header.sourcePort()).isEqualTo(51234);
        } finally {
            header.release();
        }
    }

    @Test
    void aClientWithoutAnIpAddressIsSentLocal() {
        SocketAddress none = new SocketAddress() {
            private static final long serialVersionUID = 1L;
        };
        assertThat(firstWrite(new ClientOrigin(none, none))).isEqualTo("0d0a0d0a000d0a515549540a" + "20" + "00" + "0000");
    }

    @Test
    void theWriterLeavesThePipelineAndPassesTheConnectionOn() {
        EmbeddedChannel channel = new EmbeddedChannel(new ProxyHeaderWriter(new ClientOrigin(
                new InetSocketAddress("203.0.113.7", 1), new InetSocketAddress("10.0.8.2", 2))));
        ((ByteBuf) channel.readOutbound()).release();

        assertThat(channel.pipeline().get(ProxyHeaderWriter.class)).isNull();
        assertThat(channel.pipeline().names()).doesNotContain("proxy-header-encoder");
        assertThat(channel.isActive()).isTrue();
        assertThat(channel.finish()).isFalse();
    }

    private static String firstWrite(ClientOrigin origin) {
        EmbeddedChannel channel = new EmbeddedChannel(new ProxyHeaderWriter(origin));
        ByteBuf written = channel.readOutbound();
        try {
            return ByteBufUtil.hexDump(written);
        } finally {
            written.release();
            channel.finishAndReleaseAll();
        }
    }

    /** What a receiving side (Netty's decoder, as MariaDB's parser) reads from the header. */
    private static HAProxyMessage decoded(ClientOrigin origin) {
        EmbeddedChannel sender = new EmbeddedChannel(new ProxyHeaderWriter(origin));
        EmbeddedChannel receiver = new EmbeddedChannel(new HAProxyMessageDecoder());
        receiver.writeInbound((ByteBuf) sender.readOutbound());
        HAProxyMessage header = receiver.readInbound();
        sender.finishAndReleaseAll();
        receiver.finishAndReleaseAll();
        return header;
    }
}
