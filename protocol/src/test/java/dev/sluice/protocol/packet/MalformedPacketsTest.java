package dev.sluice.protocol.packet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.testing.Captures;
import dev.sluice.protocol.testing.Direction;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every decoder fed every truncation of a real packet and seeded random mutations of it: each either
 * decodes (and the record encodes again) or fails with a ProtocolException, never with another
 * exception, and never touches the input's reference count.
 */
class MalformedPacketsTest {

    private static final int MUTATIONS = 3_000;
    private static final int[] EDGE_BYTES = {0x00, 0x01, 0x0c, 0x23, 0xfb, 0xfc, 0xfd, 0xfe, 0xff};

    record Case(String name, Supplier<byte[]> payload, Function<ByteBuf, Object> decoder) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static byte[] server(String file, int index) {
        return Captures.packets(file, Direction.SERVER_TO_CLIENT).get(index).payload();
    }

    private static byte[] client(String file, int index) {
        return Captures.packets(file, Direction.CLIENT_TO_SERVER).get(index).payload();
    }

    static Stream<Case> cases() {
        long cli = Negotiated.capabilities("text-resultset.pcapng");
        long sysbench = Negotiated.capabilities("prepared-sysbench.pcapng");
        long connectorJ = Negotiated.capabilities("connectorj.pcapng");
        long tracking = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SESSION_TRACK;
        long attributes = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_QUERY_ATTRIBUTES;
        return Stream.of(
                new Case("HandshakeV10", () -> server("handshake-native.pcapng", 0), HandshakeV10::decode),
                new Case("HandshakeResponse41", () -> client("handshake-native.pcapng", 0), HandshakeResponse41::decode),
                new Case("HandshakeResponse41 Connector/J", () -> client("connectorj.pcapng", 0),
                        HandshakeResponse41::decode),
                new Case("handshake reply", () -> Captures.packetsBeforeTls("handshake-tls.pcapng",
                        Direction.CLIENT_TO_SERVER).get(0).payload(), ClientPacket::decodeHandshakeReply),
                new Case("AuthSwitchRequest", () -> server("handshake-ed25519.pcapng", 1), AuthSwitchRequest::decode),
                new Case("AuthMoreData", () -> Bytes.of(0x01, 0x03), AuthMoreData::decode),
                new Case("OkPacket with state", () -> OkPacketTest.WITH_SESSION_STATE, p -> OkPacket.decode(p, tracking)),
                new Case("OkPacket 11.4 login", () -> Captures.packets("prepared-sysbench-11.4.pcapng",
                        Direction.SERVER_TO_CLIENT).get(1).payload(), p -> OkPacket.decode(p, sysbench)),
                new Case("OkPacket info", () -> server("text-resultset.pcapng", 23), p -> OkPacket.decode(p, cli)),
                new Case("ErrPacket", () -> server("text-resultset.pcapng", 39), p -> ErrPacket.decode(p, cli)),
                new Case("ProgressReport", () -> server("load-data-local.pcapng", 3), ProgressReport::decode),
                new Case("EofPacket", () -> server("text-resultset.pcapng", 30), EofPacket::decode),
                new Case("LocalInfileRequest", () -> server("load-data-local.pcapng", 2), LocalInfileRequest::decode),
                new Case("ColumnCount", () -> server("text-resultset.pcapng", 2), p -> ColumnCount.decode(p, cli)),
                new Case("ColumnDefinition41", () -> server("text-resultset.pcapng", 7),
                        p -> ColumnDefinition41.decode(p, cli)),
                new Case("StmtPrepareOk", () -> server("prepared-sysbench.pcapng", 2), p -> StmtPrepareOk.decode(p, sysbench)),
                new Case("ComStmtExecute typed", () -> client("connectorj.pcapng", 5),
                        p -> ComStmtExecute.decode(p, connectorJ, 10)),
                new Case("ComStmtExecute attributes", () -> Bytes.concat(Bytes.hex("17 07 00 00 00 08 01 00 00 00 01 00 01 fe 00"),
                        Bytes.of(5), Bytes.ascii("trace"), Bytes.of(3), Bytes.ascii("abc")),
                        p -> ComStmtExecute.decode(p, attributes, 0)),
                new Case("ComQuery attributes", () -> Bytes.concat(Bytes.hex("03 02 01 02 01 08 80 02"), Bytes.ascii("id"),
                        Bytes.hex("06 00 01"), Bytes.ascii("n"), Bytes.hex("2a 00 00 00 00 00 00 00"),
                        Bytes.ascii("SELECT 1")), p -> ComQuery.decode(p, attributes)),
                new Case("ComChangeUser", () -> client("connectorj.pcapng", 19), p -> ComChangeUser.decode(p, connectorJ)),
                new Case("ClientCommand fetch", () -> client("connectorj.pcapng", 9),
                        p -> ClientCommand.decode(p, connectorJ, id -> 1)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void truncationsAndMutationsFailOnlyWithProtocolException(Case c) {
        byte[] original = c.payload().get();
        List<byte[]> inputs = new ArrayList<>();
        for (int length = 0; length < original.length; length++) {
            inputs.add(Arrays.copyOf(original, length));
        }
        Random random = new Random(original.length * 31L + c.name().hashCode());
        for (int i = 0; i < MUTATIONS; i++) {
            inputs.add(mutate(original, random));
        }
        int failures = 0;
        for (byte[] input : inputs) {
            failures += decodes(c, input) ? 0 : 1;
        }
        assertThat(decodes(c, original)).as("the unmutated packet decodes").isTrue();
        assertThat(failures).as("some truncations must fail").isPositive();
    }

    private static boolean decodes(Case c, byte[] input) {
        ByteBuf in = Unpooled.wrappedBuffer(input);
        try {
            Object record = c.decoder().apply(in);
            ByteBuf out = Unpooled.buffer();
            try {
                switch (record) {
                    case ServerPacket s -> s.encode(out);
                    case ClientPacket cp -> cp.encode(out);
                    default -> fail("not a packet: " + record);
                }
            } finally {
                out.release();
            }
            return true;
        } catch (ProtocolException expected) {
            return false;
        } catch (RuntimeException e) {
            throw new AssertionError(c.name() + " threw " + e + " for " + ByteBufUtil.hexDump(input), e);
        } finally {
            assertThat(in.refCnt()).isEqualTo(1);
        }
    }

    private static byte[] mutate(byte[] original, Random random) {
        byte[] bytes = original.clone();
        int edits = 1 + random.nextInt(3);
        for (int e = 0; e < edits && bytes.length > 0; e++) {
            int at = random.nextInt(bytes.length);
            switch (random.nextInt(4)) {
                case 0 -> bytes[at] = (byte) random.nextInt(256);
                case 1 -> bytes[at] = (byte) EDGE_BYTES[random.nextInt(EDGE_BYTES.length)];
                case 2 -> bytes = Arrays.copyOf(bytes, at);
                default -> {
                    byte[] longer = new byte[bytes.length + 1 + random.nextInt(4)];
                    System.arraycopy(bytes, 0, longer, 0, at);
                    System.arraycopy(bytes, at, longer, longer.length - (bytes.length - at), bytes.length - at);
                    bytes = longer;
                }
            }
        }
        return bytes;
    }
}
