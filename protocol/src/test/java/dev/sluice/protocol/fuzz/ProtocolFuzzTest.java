package dev.sluice.protocol.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.frame.PacketFrameDecoder;
import dev.sluice.protocol.frame.PacketReassembler;
import dev.sluice.protocol.packet.AuthMoreData;
import dev.sluice.protocol.packet.AuthSwitchRequest;
import dev.sluice.protocol.packet.ClientCommand;
import dev.sluice.protocol.packet.ColumnCount;
import dev.sluice.protocol.packet.ColumnDefinition41;
import dev.sluice.protocol.packet.EofPacket;
import dev.sluice.protocol.packet.ErrPacket;
import dev.sluice.protocol.packet.HandshakeResponse41;
import dev.sluice.protocol.packet.HandshakeV10;
import dev.sluice.protocol.packet.LocalInfileRequest;
import dev.sluice.protocol.packet.OkPacket;
import dev.sluice.protocol.packet.ProgressReport;
import dev.sluice.protocol.packet.StmtPrepareOk;
import dev.sluice.protocol.response.ResponseTracker;
import dev.sluice.protocol.testing.Direction;
import dev.sluice.protocol.testing.Pcapng;
import dev.sluice.protocol.testing.RawPacket;
import dev.sluice.protocol.testing.TcpConnection;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * 100,000+ random and mutated packets through every decoder, the response tracker and the framing
 * pipeline (one input in ten, through pooled buffers). The only failure allowed is a
 * {@link ProtocolException}; no decoder may touch the reference count of its input, and everything
 * allocated from the pooled allocator is released (leak detection runs at PARANOID in tests).
 * Seeds are fixed, so a failure replays.
 */
class ProtocolFuzzTest {

    private static final int RANDOM_INPUTS = 40_000;
    private static final int MUTATED_INPUTS = 60_000;
    private static final long[] CAPABILITY_SETS = {
        0,
        Capabilities.CLIENT_PROTOCOL_41,
        Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SESSION_TRACK | Capabilities.CLIENT_DEPRECATE_EOF,
        Capabilities.CLIENT_PROTOCOL_41 | Capabilities.MARIADB_CLIENT_CACHE_METADATA
                | Capabilities.MARIADB_CLIENT_EXTENDED_METADATA | Capabilities.CLIENT_QUERY_ATTRIBUTES,
    };

    private final PooledByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
    private long protocolExceptions;
    private long decoded;

    private static List<Consumer<ByteBuf>> decoders(long caps) {
        return List.of(
                HandshakeV10::decode,
                HandshakeResponse41::decode,
                AuthSwitchRequest::decode,
                AuthMoreData::decode,
                b -> OkPacket.decode(b, caps),
                b -> ErrPacket.decode(b, caps),
                EofPacket::decode,
                ProgressReport::decode,
                b -> ColumnCount.decode(b, caps),
                b -> ColumnDefinition41.decode(b, caps),
                b -> StmtPrepareOk.decode(b, caps),
                LocalInfileRequest::decode,
                b -> ClientCommand.decode(b, caps, id -> (int) (id % 5)));
    }

    /** Every captured packet of every file: the seeds for mutation. */
    private static List<byte[]> capturedPayloads() {
        List<byte[]> payloads = new ArrayList<>();
        for (String file : List.of("handshake-native.pcapng", "handshake-ed25519.pcapng", "auth-fail.pcapng",
                "text-resultset.pcapng", "multi-results.pcapng", "multi-statement.pcapng", "load-data-local.pcapng",
                "prepared-sysbench.pcapng", "connectorj.pcapng", "connectorj-11.4.pcapng")) {
            for (TcpConnection connection : Pcapng.readResource(file).connections()) {
                for (Direction direction : Direction.values()) {
                    for (RawPacket packet : connection.packets(direction)) {
                        payloads.add(packet.payload());
                    }
                }
            }
        }
        return payloads;
    }

    @Test
    void randomAndMutatedPacketsOnlyEverRaiseProtocolException() {
        Random random = new Random(20261129);
        List<byte[]> seeds = capturedPayloads();
        assertThat(seeds).hasSizeGreaterThan(300);
        for (int i = 0; i < RANDOM_INPUTS; i++) {
            byte[] input = new byte[random.nextInt(i % 10 == 0 ? 400 : 40)];
            random.nextBytes(input);
            if (input.length > 0 && random.nextBoolean()) {
                // Steer the first byte to the headers decoders branch on.
                input[0] = (byte) new int[] {0x00, 0x01, 0x03, 0x0a, 0x16, 0x17, 0xfb, 0xfe, 0xff}[random.nextInt(9)];
            }
            exercise(input, random);
        }
        for (int i = 0; i < MUTATED_INPUTS; i++) {
            exercise(mutate(seeds.get(random.nextInt(seeds.size())), random), random);
        }
        assertThat(decoded + protocolExceptions).isGreaterThanOrEqualTo(100_000L * 4);
        assertThat(protocolExceptions).as("mutations must hit the error paths").isGreaterThan(100_000);
        assertThat(decoded).as("and still decode often").isGreaterThan(10_000);
    }

    private static byte[] mutate(byte[] seed, Random random) {
        byte[] bytes = seed.clone();
        switch (random.nextInt(5)) {
            case 0 -> {
                if (bytes.length > 0) {
                    bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
                }
            }
            case 1 -> bytes = java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length + 1));
            case 2 -> {
                for (int i = 0; i < 1 + random.nextInt(8) && bytes.length > 0; i++) {
                    bytes[random.nextInt(bytes.length)] = (byte) new int[] {0x00, 0xfb, 0xfc, 0xfd, 0xfe, 0xff}[random.nextInt(6)];
                }
            }
            case 3 -> {
                byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 1 + random.nextInt(16));
                random.nextBytes(java.util.Arrays.copyOfRange(longer, bytes.length, longer.length));
                bytes = longer;
            }
            default -> {
                if (bytes.length > 1) {
                    int a = random.nextInt(bytes.length);
                    int b = random.nextInt(bytes.length);
                    byte swap = bytes[a];
                    bytes[a] = bytes[b];
                    bytes[b] = swap;
                }
            }
        }
        return bytes;
    }

    private void exercise(byte[] input, Random random) {
        long caps = CAPABILITY_SETS[random.nextInt(CAPABILITY_SETS.length)];
        List<Consumer<ByteBuf>> all = decoders(caps);
        // Three decoders per input keeps the run short; over 100,000 inputs each decoder still
        // sees more than 20,000.
        for (int d = 0; d < 3; d++) {
            Consumer<ByteBuf> decoder = all.get(random.nextInt(all.size()));
            // Wrapped heap memory: tracking 1.3 million allocations at PARANOID would take minutes;
            // the framing path below covers the pooled allocator and its leak detection.
            ByteBuf buf = Unpooled.wrappedBuffer(input);
            try {
                decoder.accept(buf);
                decoded++;
            } catch (ProtocolException e) {
                protocolExceptions++;
            } finally {
                assertThat(buf.refCnt()).as("a decoder changed its input's reference count").isEqualTo(1);
                buf.release();
            }
        }
        trackerFed(input, caps, random);
        if (random.nextInt(10) == 0) {
            framed(input, random);
        }
    }

    private void trackerFed(byte[] input, long caps, Random random) {
        ResponseTracker tracker = new ResponseTracker(caps);
        int[] commands = {Commands.COM_QUERY, Commands.COM_STMT_PREPARE, Commands.COM_STMT_EXECUTE,
            Commands.COM_STMT_FETCH, Commands.COM_FIELD_LIST, Commands.COM_CHANGE_USER, Commands.COM_STATISTICS,
            Commands.COM_PING};
        tracker.begin(commands[random.nextInt(commands.length)]);
        ByteBuf buf = Unpooled.wrappedBuffer(input);
        try {
            // The same input several times over, as if it were a stream of packets.
            for (int i = 0; i < 4 && tracker.inProgress(); i++) {
                if (tracker.expectsClientData()) {
                    tracker.acceptClient(random.nextInt(3));
                } else {
                    tracker.accept(buf, input.length);
                }
            }
            decoded++;
        } catch (ProtocolException e) {
            protocolExceptions++;
        } finally {
            assertThat(buf.refCnt()).isEqualTo(1);
            buf.release();
        }
    }

    private void framed(byte[] input, Random random) {
        EmbeddedChannel channel = new EmbeddedChannel(new PacketFrameDecoder(), new PacketReassembler(Packet.MAX_PAYLOAD * 2L));
        ByteBuf wire = alloc.buffer(input.length).writeBytes(input);
        try {
            channel.writeInbound(wire);
        } catch (DecoderException e) {
            assertThat(e.getCause()).isInstanceOf(ProtocolException.class);
            protocolExceptions++;
        }
        for (Object out; (out = channel.readInbound()) != null; ) {
            ((Packet) out).release();
        }
        channel.finishAndReleaseAll();
        assertFalse(channel.isActive());
    }
}
