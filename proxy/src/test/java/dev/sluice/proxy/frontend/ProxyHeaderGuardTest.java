package dev.sluice.proxy.frontend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.proxy.stats.ProxyStats;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** A connection from outside proxy_protocol_networks: a PROXY header is refused, anything else goes on untouched. */
class ProxyHeaderGuardTest {

    /** The first 8 bytes of a HandshakeResponse41: length 0x50, sequence id 1, capabilities. */
    private static final String LOGIN_START = "50000001" + "8da2bf19";

    private final ProxyStats stats = new ProxyStats();
    private final Downstream downstream = new Downstream();
    private final EmbeddedChannel channel = new EmbeddedChannel(new ProxyHeaderGuard(stats), downstream);

    @Test
    void aMysqlLoginGoesOnUntouchedAndTheGuardLeaves() {
        channel.writeInbound(hex(LOGIN_START.substring(0, 2)));
        channel.writeInbound(hex(LOGIN_START.substring(2)));

        assertThat(downstream.bytes()).isEqualTo(LOGIN_START);
        assertThat(channel.pipeline().get(ProxyHeaderGuard.class)).isNull();
        assertThat(stats.protocolErrors()).isZero();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void bytesThatOnlyBeganLikeAHeaderAreHandedOnWhole() {
        channel.writeInbound(Unpooled.copiedBuffer("PROX", StandardCharsets.US_ASCII));
        assertThat(downstream.bytes()).as("held while it could still be a header").isEmpty();

        channel.writeInbound(Unpooled.copiedBuffer("IMA", StandardCharsets.US_ASCII));

        assertThat(downstream.bytes()).isEqualTo("50524f58494d41");
        assertThat(channel.isOpen()).isTrue();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void aV1HeaderIsRefusedWithErr1130AndNothingReachesTheLogin() {
        channel.writeInbound(Unpooled.copiedBuffer("PROX", StandardCharsets.US_ASCII));
        channel.writeInbound(Unpooled.copiedBuffer("Y TCP4 6.6.6.6 10.0.8.2 1 4040\r\n" + "then the login",
                StandardCharsets.US_ASCII));

        assertRefused();
    }

    @Test
    void aV2HeaderIsRefusedOnceItsSignatureIsWhole() {
        byte[] signature = HexFormat.of().parseHex("0d0a0d0a000d0a515549540a" + "2111000c");
        for (int i = 0; i < 11; i++) {
            channel.writeInbound(Unpooled.wrappedBuffer(signature, i, 1));
            assertThat(channel.isOpen()).isTrue();
        }

        channel.writeInbound(Unpooled.wrappedBuffer(signature, 11, signature.length - 11));

        assertRefused();
    }

    private void assertRefused() {
        ByteBuf err = channel.readOutbound();
        try {
            assertThat(err.getUnsignedByte(3)).as("sequence id: the answer to the login after the greeting").isEqualTo((short) 2);
            assertThat(err.getUnsignedByte(4)).as("ERR").isEqualTo((short) 0xFF);
            assertThat(err.getUnsignedShortLE(5)).isEqualTo(1130);
            assertThat(err.toString(StandardCharsets.UTF_8))
                    .contains("is not allowed to send a PROXY protocol header: it is not in proxy_protocol_networks");
        } finally {
            err.release();
        }
        assertThat(channel.isOpen()).isFalse();
        assertThat(downstream.bytes()).isEmpty();
        assertThat(stats.protocolErrors()).isOne();
        assertThat(channel.finish()).isFalse();
    }

    private static ByteBuf hex(String hex) {
        return Unpooled.wrappedBuffer(HexFormat.of().parseHex(hex));
    }
}
