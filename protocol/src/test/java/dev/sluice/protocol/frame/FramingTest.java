package dev.sluice.protocol.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.sluice.protocol.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FramingTest {

    private static EmbeddedChannel decoderChannel(long maxPayload) {
        return new EmbeddedChannel(new PacketFrameDecoder(), new PacketReassembler(maxPayload));
    }

    @Test
    void decodesAPacketFedOneByteAtATime() {
        EmbeddedChannel channel = decoderChannel(1 << 20);
        // COM_QUERY "select 1" as the mariadb CLI sends it (handshake-native.pcapng frame 10):
        byte[] wire = ByteBufUtil.decodeHexDump("09000000" + "0373656c6563742031");
        for (int i = 0; i < wire.length; i++) {
            channel.writeInbound(Unpooled.wrappedBuffer(wire, i, 1));
            if (i < wire.length - 1) {
                assertThat((Object) channel.readInbound()).as("after %d bytes", i + 1).isNull();
            }
        }
        Packet packet = channel.readInbound();
        assertThat(packet.sequenceId()).isZero();
        assertThat(packet.payload().toString(1, 8, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("select 1");
        packet.release();
        assertFalse(channel.finish());
    }

    @Test
    void decodesSeveralPacketsInOneChunk() {
        EmbeddedChannel channel = decoderChannel(1 << 20);
        // column count (1), then an EOF: fe 00 00 02 00 (warnings 0, status AUTOCOMMIT)
        channel.writeInbound(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump("01000001" + "01" + "05000002" + "fe00000200")));
        Packet first = channel.readInbound();
        Packet second = channel.readInbound();
        assertThat(first.sequenceId()).isEqualTo(1);
        assertThat(first.length()).isEqualTo(1);
        assertThat(second.sequenceId()).isEqualTo(2);
        assertThat(ByteBufUtil.hexDump(second.payload())).isEqualTo("fe00000200");
        first.release();
        second.release();
        assertFalse(channel.finish());
    }

    @Test
    void joinedPayloadTakesTheHeadersOutOfASplitCommand() {
        for (int total : new int[] {10, Packet.MAX_PAYLOAD, Packet.MAX_PAYLOAD + 1000, 2 * Packet.MAX_PAYLOAD}) {
            byte[] payload = randomBytes(total, total);
            ByteBuf frames = PacketEncoder.encodeToBuffer(io.netty.buffer.UnpooledByteBufAllocator.DEFAULT, 0, Unpooled.wrappedBuffer(payload));
            ByteBuf joined = RawPacketDecoder.joinedPayload(frames);
            assertThat(ByteBufUtil.getBytes(joined)).as("%d bytes", total).isEqualTo(payload);
            joined.release();
            assertThat(frames.refCnt()).as("the frames are the caller's still").isEqualTo(1);
            frames.release();
        }
        ByteBuf cut = PacketEncoder.encodeToBuffer(io.netty.buffer.UnpooledByteBufAllocator.DEFAULT, 0,
                Unpooled.wrappedBuffer(new byte[Packet.MAX_PAYLOAD + 5]));
        ByteBuf missingTail = cut.slice(0, cut.readableBytes() - 2);
        assertThatThrownBy(() -> RawPacketDecoder.joinedPayload(missingTail)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("middle of a packet");
        cut.release();
    }

    @Test
    void joinsASplitPayloadWithItsShortLastPiece() {
        int total = Packet.MAX_PAYLOAD + 1000;
        byte[] payload = randomBytes(total, 1);
        assertRoundTripThroughPipeline(payload, 7, 2);
    }

    @Test
    void joinsAnExactMultipleOfTheMaximumWithItsEmptyTrailer() {
        byte[] payload = randomBytes(Packet.MAX_PAYLOAD * 2, 2);
        ByteBuf wire = PacketEncoder.encodeToBuffer(Unpooled.buffer().alloc(), 250, Unpooled.wrappedBuffer(payload));
        // Two full pieces and the empty trailer, ids wrapping past 255: 250, 251, 252.
        assertThat(wire.readableBytes()).isEqualTo(payload.length + 3 * Packet.HEADER_SIZE);
        assertThat(wire.getUnsignedMediumLE(Packet.HEADER_SIZE + Packet.MAX_PAYLOAD)).isEqualTo(Packet.MAX_PAYLOAD);
        int trailer = 2 * (Packet.HEADER_SIZE + Packet.MAX_PAYLOAD);
        assertThat(wire.getUnsignedMediumLE(trailer)).isZero();
        assertThat(wire.getUnsignedByte(trailer + 3)).isEqualTo((short) 252);
        wire.release();
        assertRoundTripThroughPipeline(payload, 250, 3);
    }

    @Test
    void passesAPayloadJustUnderTheMaximumAsOnePacket() {
        assertRoundTripThroughPipeline(randomBytes(Packet.MAX_PAYLOAD - 1, 3), 0, 1);
    }

    @Test
    void refusesAContinuationWithAWrongSequenceId() {
        EmbeddedChannel channel = decoderChannel(1L << 30);
        ByteBuf wire = Unpooled.buffer();
        wire.writeMediumLE(Packet.MAX_PAYLOAD).writeByte(0).writeZero(Packet.MAX_PAYLOAD);
        wire.writeMediumLE(3).writeByte(5).writeZero(3);
        assertThatThrownBy(() -> channel.writeInbound(wire))
                .isInstanceOf(DecoderException.class)
                .hasCauseInstanceOf(ProtocolException.class)
                .hasMessageContaining("sequence id 5 (expected: 1)");
        assertFalse(channel.finish());
    }

    @Test
    void refusesAJoinedPayloadAboveTheLimitBeforeBufferingIt() {
        EmbeddedChannel channel = decoderChannel(Packet.MAX_PAYLOAD + 10L);
        ByteBuf wire = Unpooled.buffer();
        wire.writeMediumLE(Packet.MAX_PAYLOAD).writeByte(0).writeZero(Packet.MAX_PAYLOAD);
        wire.writeMediumLE(11).writeByte(1).writeZero(11);
        assertThatThrownBy(() -> channel.writeInbound(wire))
                .hasCauseInstanceOf(ProtocolException.class)
                .hasMessageContaining("expected: <= " + (Packet.MAX_PAYLOAD + 10L));
        assertFalse(channel.finish());
    }

    @Test
    void encoderSplitsAndNumbersPieces() {
        EmbeddedChannel channel = new EmbeddedChannel(PacketEncoder.INSTANCE);
        byte[] payload = randomBytes(Packet.MAX_PAYLOAD + 5, 4);
        channel.writeOutbound(new Packet(3, Unpooled.wrappedBuffer(payload)));
        ByteBuf wire = Unpooled.buffer();
        for (Object part; (part = channel.readOutbound()) != null; ) {
            ByteBuf buf = (ByteBuf) part;
            wire.writeBytes(buf);
            buf.release();
        }
        assertThat(wire.getUnsignedMediumLE(0)).isEqualTo(Packet.MAX_PAYLOAD);
        assertThat(wire.getUnsignedByte(3)).isEqualTo((short) 3);
        int second = Packet.HEADER_SIZE + Packet.MAX_PAYLOAD;
        assertThat(wire.getUnsignedMediumLE(second)).isEqualTo(5);
        assertThat(wire.getUnsignedByte(second + 3)).isEqualTo((short) 4);
        assertThat(wire.readableBytes()).isEqualTo(payload.length + 2 * Packet.HEADER_SIZE);
        wire.release();
        assertFalse(channel.finish());
    }

    /** Encodes, feeds the wire bytes in uneven chunks, and expects the payload back whole. */
    private static void assertRoundTripThroughPipeline(byte[] payload, int sequenceId, int expectedPieces) {
        ByteBuf wire = PacketEncoder.encodeToBuffer(Unpooled.buffer().alloc(), sequenceId, Unpooled.wrappedBuffer(payload));
        assertThat(wire.readableBytes()).isEqualTo(payload.length + expectedPieces * Packet.HEADER_SIZE);
        EmbeddedChannel channel = decoderChannel(1L << 30);
        Random random = new Random(sequenceId);
        while (wire.isReadable()) {
            int chunk = Math.min(wire.readableBytes(), 1 + random.nextInt(3_000_000));
            channel.writeInbound(wire.readRetainedSlice(chunk));
        }
        wire.release();
        Packet packet = channel.readInbound();
        assertThat(packet.sequenceId()).isEqualTo(sequenceId);
        assertThat(packet.length()).isEqualTo(payload.length);
        assertThat(Arrays.equals(ByteBufUtil.getBytes(packet.payload()), payload)).isTrue();
        packet.release();
        assertThat((Object) channel.readInbound()).isNull();
        assertFalse(channel.finish());
    }

    private static byte[] randomBytes(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
