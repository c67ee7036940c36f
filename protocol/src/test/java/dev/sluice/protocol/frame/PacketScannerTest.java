package dev.sluice.protocol.frame;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PacketScannerTest {

    private record Seen(int sequenceId, int length, String prefixHex) {
    }

    @Test
    void seesTheSamePacketsWhateverTheChunking() {
        ByteBuf stream = Unpooled.buffer();
        Random random = new Random(42);
        List<Seen> expected = new ArrayList<>();
        List<Seen> expectedWhole = new ArrayList<>();
        int[] lengths = {0, 1, 5, 15, 16, 17, 100, 4096, 70_000, 0, 3};
        int seq = 0;
        for (int length : lengths) {
            byte[] payload = new byte[length];
            random.nextBytes(payload);
            stream.writeMediumLE(length).writeByte(seq);
            stream.writeBytes(payload);
            expected.add(new Seen(seq, length, ByteBufUtil.hexDump(payload, 0, Math.min(length, 32))));
            expectedWhole.add(new Seen(seq, length, ByteBufUtil.hexDump(payload)));
            seq++;
        }
        for (int round = 0; round < 200; round++) {
            // Small limits keep prefixes; a large one makes split packets grow the pending buffer.
            int limit = round % 2 == 0 ? 32 : 100_000;
            PacketScanner scanner = new PacketScanner(limit);
            List<Seen> seen = new ArrayList<>();
            ByteBuf input = stream.duplicate();
            while (input.isReadable()) {
                int size = Math.min(input.readableBytes(), 1 + random.nextInt(round < 100 ? 7 : 9000));
                ByteBuf chunk = input.readSlice(size);
                int readerBefore = chunk.readerIndex();
                int writerBefore = chunk.writerIndex();
                scanner.scan(chunk, (s, l, payload, end) -> {
                    assertThat(end).isBetween(readerBefore, writerBefore);
                    seen.add(new Seen(s, l, ByteBufUtil.hexDump(payload)));
                });
                assertThat(chunk.readerIndex()).isEqualTo(readerBefore);
                assertThat(chunk.writerIndex()).isEqualTo(writerBefore);
            }
            assertThat(seen).isEqualTo(limit == 32 ? expected : expectedWhole);
            assertThat(scanner.atBoundary()).isTrue();
        }
        stream.release();
    }

    @Test
    void endIndexPointsJustPastEachPacketInTheChunk() {
        ByteBuf chunk = Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump("01000001" + "01" + "05000002" + "fe00000200"));
        List<Integer> ends = new ArrayList<>();
        new PacketScanner(64).scan(chunk, (s, l, p, end) -> ends.add(end));
        assertThat(ends).containsExactly(5, 14);
    }

    @Test
    void reportsAPartialPacketAsNotAtABoundary() {
        PacketScanner scanner = new PacketScanner(64);
        List<Integer> lengths = new ArrayList<>();
        scanner.scan(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump("0500000200")), (s, l, p, e) -> lengths.add(l));
        assertThat(lengths).isEmpty();
        assertThat(scanner.atBoundary()).isFalse();
        scanner.scan(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump("00000200")), (s, l, p, e) -> lengths.add(l));
        assertThat(lengths).containsExactly(5);
        assertThat(scanner.atBoundary()).isTrue();
    }
}
