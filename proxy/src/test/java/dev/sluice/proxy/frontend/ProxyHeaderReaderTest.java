package dev.sluice.proxy.frontend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.proxy.stats.ProxyStats;
import dev.sluice.proxy.client.ClientOrigin;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A connection from a trusted load balancer: Netty's decoder and {@link ProxyHeaderReader} fed
 * golden PROXY v1 and v2 headers in fragments, then hostile ones. The connection reaches the rest
 * of the pipeline (the greeting) only after a whole, valid header, which names its client.
 */
class ProxyHeaderReaderTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** haproxy's send-proxy for a client 203.0.113.7:51234 that connected to 10.0.8.2:4040. */
    private static final byte[] V1 = "PROXY TCP4 203.0.113.7 10.0.8.2 51234 4040\r\n".getBytes(StandardCharsets.US_ASCII);

    /** haproxy's send-proxy-v2 for the same connection. */
    private static final byte[] V2_TCP4 = {
        0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A, // signature: \r\n\r\n\0\r\nQUIT\n
        0x21,                                                                   // version 2, command PROXY
        0x11,                                                                   // AF_INET, SOCK_STREAM: TCP over IPv4
        0x00, 0x0C,                                                             // 12 address bytes follow
        (byte) 0xCB, 0x00, 0x71, 0x07,                                          // source 203.0.113.7
        0x0A, 0x00, 0x08, 0x02,                                                 // destination 10.0.8.2
        (byte) 0xC8, 0x22,                                                      // source port 51234
        0x0F, (byte) 0xC8,                                                      // destination port 4040
    };

    /** v2 for 2001:db8::7 port 40000 to [2001:db8::1]:4040, with a unique-id TLV as haproxy's unique-id-format adds. */
    private static final byte[] V2_TCP6_WITH_TLV = {
        0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A, // signature
        0x21,                                                                   // version 2, command PROXY
        0x21,                                                                   // AF_INET6, SOCK_STREAM: TCP over IPv6
        0x00, 0x2B,                                                             // 43 bytes follow: 36 of addresses, 7 of TLV
        0x20, 0x01, 0x0D, (byte) 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x07,   // source 2001:db8::7
        0x20, 0x01, 0x0D, (byte) 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01,   // destination 2001:db8::1
        (byte) 0x9C, 0x40,                                                      // source port 40000
        0x0F, (byte) 0xC8,                                                      // destination port 4040
        0x05,                                                                   // TLV type PP2_TYPE_UNIQUE_ID
        0x00, 0x04,                                                             // TLV length 4
        'a', 'b', 'c', 'd',                                                     // the id
    };

    /** v2 LOCAL: the balancer's own health check, which names no client. */
    private static final byte[] V2_LOCAL = {
        0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A, // signature
        0x20,                                                                   // version 2, command LOCAL
        0x00,                                                                   // AF_UNSPEC
        0x00, 0x00,                                                             // nothing follows
    };

    private final ProxyStats stats = new ProxyStats();
    private final Downstream downstream = new Downstream();
    private final EmbeddedChannel channel = new EmbeddedChannel(
            new HAProxyMessageDecoder(ProxyHeaderReader.MAX_TLV_BYTES), new ProxyHeaderReader(TIMEOUT, stats), downstream);

    @Test
    void v1ByteByByteNamesTheClientThenStartsTheConnection() {
        for (int i = 0; i < V1.length; i++) {
            assertThat(downstream.events).as("after %d of %d bytes", i, V1.length).isEmpty();
            channel.writeInbound(Unpooled.wrappedBuffer(V1, i, 1));
        }

        assertThat(downstream.events).containsExactly("active");
        assertThat(origin()).isEqualTo(new ClientOrigin(new InetSocketAddress("203.0.113.7", 51234),
                new InetSocketAddress("10.0.8.2", 4040)));
        assertThat(channel.pipeline().names()).doesNotContain("HAProxyMessageDecoder#0", "ProxyHeaderReader#0");
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void v2InTwoFragmentsWithTheClientsFirstBytesBehindIt() {
        byte[] withMore = Arrays.copyOf(V2_TCP4, V2_TCP4.length + 3);
        withMore[V2_TCP4.length] = 0x20;
        withMore[V2_TCP4.length + 2] = 0x01;

        channel.writeInbound(Unpooled.wrappedBuffer(withMore, 0, 15));
        assertThat(downstream.events).isEmpty();
        channel.writeInbound(Unpooled.wrappedBuffer(withMore, 15, withMore.length - 15));

        assertThat(downstream.events).containsExactly("active");
        assertThat(downstream.bytes()).as("what followed the header, untouched").isEqualTo("200001");
        assertThat(origin().describe()).isEqualTo("203.0.113.7:51234");
        assertThat(origin().host()).isEqualTo("203.0.113.7");
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void v2OverIpv6WithATlv() {
        channel.writeInbound(Unpooled.wrappedBuffer(V2_TCP6_WITH_TLV));

        assertThat(downstream.events).containsExactly("active");
        assertThat(origin()).isEqualTo(new ClientOrigin(new InetSocketAddress("2001:db8::7", 40000),
                new InetSocketAddress("2001:db8::1", 4040)));
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void v2LocalKeepsTheBalancersOwnAddress() {
        ClientOrigin before = origin();

        channel.writeInbound(Unpooled.wrappedBuffer(V2_LOCAL));

        assertThat(downstream.events).containsExactly("active");
        assertThat(origin()).isEqualTo(before);
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void noHeaderWithinTheTimeoutIsRefusedInPlaceOfTheGreeting() {
        channel.freezeTime();
        channel.writeInbound(Unpooled.wrappedBuffer(V2_TCP4, 0, 20));
        channel.advanceTimeBy(TIMEOUT.toMillis() / 2, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertThat(channel.isOpen()).isTrue();

        channel.advanceTimeBy(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();

        ByteBuf err = channel.readOutbound();
        try {
            assertThat(err.getUnsignedByte(3)).as("sequence id: in place of the greeting").isZero();
            assertThat(err.getUnsignedByte(4)).as("ERR").isEqualTo((short) 0xFF);
            assertThat(err.getUnsignedShortLE(5)).isEqualTo(1130);
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("is not allowed to connect without a PROXY protocol"
                    + " header: it is in proxy_protocol_networks");
        } finally {
            err.release();
        }
        assertThat(channel.isOpen()).isFalse();
        assertThat(downstream.events).isEmpty();
        assertThat(stats.protocolErrors()).isOne();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void aTruncatedHeaderAndACloseLeaveNothingBehind() {
        channel.writeInbound(Unpooled.wrappedBuffer(V2_TCP4, 0, V2_TCP4.length - 1));

        channel.close();

        assertThat(downstream.events).as("the connection never started, so it never ends either").isEmpty();
        assertThat(stats.protocolErrors()).isZero();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void aV2HeaderClaimingAHugeLengthIsCutOffOnceItPassesTheLimit() {
        byte[] huge = Arrays.copyOf(V2_TCP4, 16);
        huge[14] = (byte) 0xFF; // 65535 bytes follow...
        huge[15] = (byte) 0xFF;
        channel.writeInbound(Unpooled.wrappedBuffer(huge));
        assertThat(channel.isOpen()).isTrue();

        // ... of which more than a header with the longest addresses (232 bytes) and 1 KiB of TLVs arrive.
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[232 + ProxyHeaderReader.MAX_TLV_BYTES]));

        assertThat(channel.isOpen()).isFalse();
        assertThat(downstream.events).isEmpty();
        assertThat(stats.protocolErrors()).isOne();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void malformedHeadersCloseTheConnection() {
        String[] bad = {
            "PROXY TCP4 999.0.113.7 10.0.8.2 51234 4040\r\n",   // not an address
            "PROXY TCP4 203.0.113.7 10.0.8.2 51234\r\n",        // a port missing
            "PROXY TCP9 203.0.113.7 10.0.8.2 51234 4040\r\n",   // no such protocol
            "GET / HTTP/1.1\r\nHost: sluice\r\n\r\n",           // not PROXY at all
            "PROXY TCP4 " + "1".repeat(120),                     // longer than a v1 line may be, no end
        };
        for (String text : bad) {
            ProxyStats counted = new ProxyStats();
            Downstream rest = new Downstream();
            EmbeddedChannel connection = new EmbeddedChannel(new HAProxyMessageDecoder(ProxyHeaderReader.MAX_TLV_BYTES),
                    new ProxyHeaderReader(TIMEOUT, counted), rest);

            connection.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII));

            assertThat(connection.isOpen()).as(text).isFalse();
            assertThat(rest.events).as(text).isEmpty();
            assertThat(counted.protocolErrors()).as(text).isOne();
            assertThat(connection.finish()).isFalse();
        }
    }

    @Test
    void aV2HeaderOfAnotherVersionIsRefused() {
        byte[] v3 = V2_TCP4.clone();
        v3[12] = 0x31;

        channel.writeInbound(Unpooled.wrappedBuffer(v3));

        assertThat(channel.isOpen()).isFalse();
        assertThat(downstream.events).isEmpty();
        assertThat(channel.finish()).isFalse();
    }

    private ClientOrigin origin() {
        return ClientOrigin.of(channel);
    }

    /** The golden bytes in the form the specification prints them, for a reader comparing by eye. */
    @Test
    void goldenV2IsTheSpecificationsLayout() {
        assertThat(ByteBufUtil.hexDump(V2_TCP4)).isEqualTo("0d0a0d0a000d0a515549540a" + "21" + "11" + "000c"
                + "cb007107" + "0a000802" + "c822" + "0fc8");
    }
}
