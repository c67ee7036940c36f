package dev.sluice.protocol.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.testing.Captures;
import dev.sluice.protocol.testing.Direction;
import dev.sluice.protocol.testing.MysqlPackets;
import dev.sluice.protocol.testing.RawPacket;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.TooLongFrameException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The proxy's frame decoder fed real traffic in pieces: both directions of captured connections,
 * cut in pieces of many sizes from one byte up and at random places, must come out as the same packets, in
 * order, each whole with its header, whatever the cuts (Netty's RedisDecoderTest does the same).
 */
class RawPacketDecoderTest {

    @ParameterizedTest
    @CsvSource({
        "connectorj.pcapng, CLIENT_TO_SERVER", "connectorj.pcapng, SERVER_TO_CLIENT",
        "text-resultset.pcapng, SERVER_TO_CLIENT", "prepared-sysbench.pcapng, SERVER_TO_CLIENT",
        "load-data-local.pcapng, CLIENT_TO_SERVER", "multi-statement.pcapng, SERVER_TO_CLIENT"})
    void piecesOfEverySizeGiveTheCapturedPacketsBack(String file, Direction direction) {
        byte[] stream = Captures.capture(file).connection().bytes(direction);
        List<byte[]> expected = framesOf(stream);
        for (int piece : new int[] {1, 2, 3, 4, 5, 7, 9, 11, 16, 23, 64, 1460}) {
            assertThat(decode(stream, cutsOfSize(stream.length, piece))).as("%s, pieces of %d bytes", file, piece)
                    .containsExactlyElementsOf(expected);
        }
        Random random = new Random(15);
        for (int round = 0; round < 20; round++) {
            assertThat(decode(stream, randomCuts(stream.length, random))).as("%s, random cuts round %d", file, round)
                    .containsExactlyElementsOf(expected);
        }
    }

    @Test
    void aSplitCommandComesOutPacketByPacket() {
        byte[] first = packet(0, new byte[Packet.MAX_PAYLOAD]);
        byte[] last = packet(1, new byte[] {3, 'x'});
        byte[] stream = new byte[first.length + last.length];
        System.arraycopy(first, 0, stream, 0, first.length);
        System.arraycopy(last, 0, stream, first.length, last.length);
        List<byte[]> frames = decode(stream, cutsOfSize(stream.length, 1 << 16));
        assertThat(frames).hasSize(2);
        assertThat(frames.get(0)).hasSize(first.length);
        assertThat(frames.get(1)).isEqualTo(last);
    }

    @Test
    void aPacketOverTheLimitIsRefusedAtItsHeaderBeforeItIsBuffered() {
        EmbeddedChannel channel = new EmbeddedChannel(new RawPacketDecoder(1024));
        ByteBuf header = Unpooled.buffer().writeMediumLE(1025).writeByte(0).writeByte(3);
        assertThatThrownBy(() -> channel.writeInbound(header)).isInstanceOf(TooLongFrameException.class)
                .hasMessageContaining("packet length: 1025 (expected: <= 1024)");
        assertThat(header.refCnt()).as("the decoder released what it skipped").isZero();
        assertThat((Object) channel.readInbound()).isNull();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void theLimitRisesForTheNextPacket() {
        RawPacketDecoder decoder = new RawPacketDecoder(8);
        EmbeddedChannel channel = new EmbeddedChannel(decoder);
        decoder.maxPacket(64);
        channel.writeInbound(Unpooled.wrappedBuffer(packet(0, new byte[40])));
        ByteBuf frame = channel.readInbound();
        assertThat(RawPacketDecoder.payloadLength(frame)).isEqualTo(40);
        frame.release();
        assertThat(channel.finish()).isFalse();
    }

    /** What the decoder hands on for {@code stream} fed in the given cuts, as byte arrays (released). */
    private static List<byte[]> decode(byte[] stream, List<int[]> cuts) {
        EmbeddedChannel channel = new EmbeddedChannel(new RawPacketDecoder());
        List<byte[]> frames = new ArrayList<>();
        for (int[] cut : cuts) {
            channel.writeInbound(Unpooled.wrappedBuffer(stream, cut[0], cut[1]));
            for (ByteBuf frame = channel.readInbound(); frame != null; frame = channel.readInbound()) {
                frames.add(ByteBufUtil.getBytes(frame));
                frame.release();
            }
        }
        assertThat(channel.finish()).as("nothing left over").isFalse();
        return frames;
    }

    /** Each captured packet with its header, as it was on the wire. */
    private static List<byte[]> framesOf(byte[] stream) {
        List<byte[]> frames = new ArrayList<>();
        for (RawPacket packet : MysqlPackets.split(stream)) {
            frames.add(packet(packet.seq(), packet.payload()));
        }
        return frames;
    }

    private static byte[] packet(int sequenceId, byte[] payload) {
        byte[] framed = new byte[Packet.HEADER_SIZE + payload.length];
        framed[0] = (byte) payload.length;
        framed[1] = (byte) (payload.length >> 8);
        framed[2] = (byte) (payload.length >> 16);
        framed[3] = (byte) sequenceId;
        System.arraycopy(payload, 0, framed, Packet.HEADER_SIZE, payload.length);
        return framed;
    }

    private static List<int[]> cutsOfSize(int length, int piece) {
        List<int[]> cuts = new ArrayList<>();
        for (int at = 0; at < length; at += piece) {
            cuts.add(new int[] {at, Math.min(piece, length - at)});
        }
        return cuts;
    }

    private static List<int[]> randomCuts(int length, Random random) {
        List<int[]> cuts = new ArrayList<>();
        for (int at = 0; at < length; ) {
            int size = Math.min(length - at, 1 + random.nextInt(300));
            cuts.add(new int[] {at, size});
            at += size;
        }
        return cuts;
    }
}
