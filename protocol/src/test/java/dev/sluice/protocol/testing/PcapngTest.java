package dev.sluice.protocol.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The capture reader against the counts in captures/README.md (frames, connections, packets). */
class PcapngTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "handshake-native.pcapng,       14,  1,   3,    7",
        "handshake-ed25519.pcapng,      16,  1,   4,    8",
        "auth-fail.pcapng,              11,  1,   1,    2",
        "text-resultset.pcapng,         26,  1,   9,   40",
        "multi-results.pcapng,          21,  1,   5,   26",
        "multi-statement.pcapng,        20,  1,   3,   27",
        "load-data-local.pcapng,        20,  1,   6,   10",
        "large-packet.pcapng.gz,       767,  1,   7,   17",
        "prepared-sysbench.pcapng,      55,  1,  24,   87",
        "mysqlslap.pcapng,             286,  3, 130, 1220",
        "connectorj.pcapng,             85,  1,  38,  112",
        "handshake-native-11.4.pcapng,  14,  1,   3,    7",
        "text-resultset-11.4.pcapng,    26,  1,   9,   40",
        "prepared-sysbench-11.4.pcapng, 55,  1,  24,   87",
        "connectorj-11.4.pcapng,        85,  1,  38,  110",
    })
    void packetCountsMatchTheReadme(String file, int frames, int connections, int toServer, int toClient) {
        Capture capture = Pcapng.readResource(file);

        assertThat(capture.frames()).isEqualTo(frames);
        assertThat(capture.connections()).hasSize(connections);
        int c2s = 0;
        int s2c = 0;
        for (TcpConnection connection : capture.connections()) {
            assertThat(connection.server().getPort()).isIn(13406, 13407);
            c2s += connection.packets(Direction.CLIENT_TO_SERVER).size();
            s2c += connection.packets(Direction.SERVER_TO_CLIENT).size();
            assertSegmentsRebuildTheStreams(connection);
        }
        assertThat(c2s).isEqualTo(toServer);
        assertThat(s2c).isEqualTo(toClient);
    }

    @Test
    void tlsCaptureHasOnePlaintextPacketEachWayThenTlsRecords() {
        TcpConnection connection = Pcapng.readResource("handshake-tls.pcapng").connection();

        List<RawPacket> greeting = MysqlPackets.splitPrefix(connection.serverToClient(), 1);
        List<RawPacket> sslRequest = MysqlPackets.splitPrefix(connection.clientToServer(), 1);
        assertThat(greeting.get(0).seq()).isZero();
        assertThat(sslRequest.get(0).seq()).isEqualTo(1);
        assertThat(sslRequest.get(0).payload()).hasSize(32);
        // After the 36-byte SSLRequest packet comes a TLS handshake record (content type 0x16, version 3.x).
        assertThat(connection.clientToServer()[36]).isEqualTo((byte) 0x16);
        assertThat(connection.clientToServer()[37]).isEqualTo((byte) 0x03);
        assertThatThrownBy(() -> MysqlPackets.split(connection.clientToServer()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stream ends inside a packet");
    }

    @Test
    void largePacketReassemblesDespiteReorderingAndTheBlobHasTheReadmesMd5() throws Exception {
        TcpConnection connection = Pcapng.readResource("large-packet.pcapng.gz").connection();
        List<RawPacket> toClient = connection.packets(Direction.SERVER_TO_CLIENT);

        // The SELECT b row: seq 4 of 0xFFFFFF bytes, then seq 5 of 1,048,586 bytes, then EOF seq 6.
        int row = toClient.size() - 3;
        assertThat(toClient.get(row).seq()).isEqualTo(4);
        assertThat(toClient.get(row).payload()).hasSize(0xFFFFFF);
        assertThat(toClient.get(row + 1).seq()).isEqualTo(5);
        assertThat(toClient.get(row + 1).payload()).hasSize(1_048_586);
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        joined.writeBytes(toClient.get(row).payload());
        joined.writeBytes(toClient.get(row + 1).payload());
        byte[] payload = joined.toByteArray();
        assertThat(payload[0]).isEqualTo((byte) 0xFE);
        assertThat(payload).hasSize(1 + 8 + 17_825_792);
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        md5.update(payload, 9, 17_825_792);
        assertThat(HexFormat.of().formatHex(md5.digest())).isEqualTo("329229b9ed8488f9aa7718125bbab6a1");

        List<RawPacket> toServer = connection.packets(Direction.CLIENT_TO_SERVER);
        assertThat(toServer).extracting(p -> p.payload().length).contains(0xFFFFFF, 1_048_614);

        // Frames 361 and 363 arrived ahead of 362 and 364 (tshark: "out-of-order"); each 65,483 bytes.
        // 361 waits, 362 fills the first gap, 363 waits again, and 364 releases itself plus 361 and 363.
        assertThat(connection.segments()).extracting(Segment::frame).doesNotContain(361, 363);
        assertThat(segmentOfFrame(connection, 362).bytes()).hasSize(65_483);
        assertThat(segmentOfFrame(connection, 364).bytes()).hasSize(3 * 65_483);
    }

    private static Segment segmentOfFrame(TcpConnection connection, int frame) {
        return connection.segments().stream().filter(s -> s.frame() == frame).findFirst().orElseThrow();
    }

    @Test
    void mysqlslapHasThreeConnectionsFromDistinctClientPorts() {
        Capture capture = Pcapng.readResource("mysqlslap.pcapng");

        assertThat(capture.connections()).extracting(c -> c.client().getPort()).doesNotHaveDuplicates();
        assertThat(capture.connections()).allSatisfy(c -> assertThat(c.server().getPort()).isEqualTo(13406));
    }

    @Test
    void unknownResourceIsNamed() {
        assertThatThrownBy(() -> Pcapng.readResource("nope.pcapng"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("/captures/nope.pcapng");
    }

    @Test
    void truncatedBlockIsReported() {
        byte[] file = new byte[] {0x0A, 0x0D, 0x0D, 0x0A, 0x40, 0, 0, 0, 0x4D, 0x3C, 0x2B, 0x1A};

        assertThatThrownBy(() -> Pcapng.read(file, "short"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("short: block at offset 0 has length 64");
    }

    private static void assertSegmentsRebuildTheStreams(TcpConnection connection) {
        ByteArrayOutputStream c2s = new ByteArrayOutputStream();
        ByteArrayOutputStream s2c = new ByteArrayOutputStream();
        int lastFrame = 0;
        for (Segment segment : connection.segments()) {
            assertThat(segment.frame()).isGreaterThan(lastFrame);
            lastFrame = segment.frame();
            (segment.direction() == Direction.CLIENT_TO_SERVER ? c2s : s2c).writeBytes(segment.bytes());
        }
        assertThat(c2s.toByteArray()).isEqualTo(connection.clientToServer());
        assertThat(s2c.toByteArray()).isEqualTo(connection.serverToClient());
    }
}
