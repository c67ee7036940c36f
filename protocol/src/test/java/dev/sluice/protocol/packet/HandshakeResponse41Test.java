package dev.sluice.protocol.packet;

import static dev.sluice.protocol.packet.Bytes.ascii;
import static dev.sluice.protocol.packet.Bytes.concat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.testing.CapturedPacket;
import dev.sluice.protocol.testing.Captures;
import dev.sluice.protocol.testing.Direction;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HandshakeResponse41Test {

    private static HandshakeResponse41 roundTrip(byte[] payload) {
        return RoundTrip.exact(payload, HandshakeResponse41::decode, HandshakeResponse41::encode);
    }

    /** The handshake response: the first client packet of a connection, which must start in {@code frame}. */
    private static byte[] firstClientPacket(String file, int connection, int frame) {
        CapturedPacket packet = Captures.packets(file, connection, Direction.CLIENT_TO_SERVER).get(0);
        assertThat(packet.frame()).isEqualTo(frame);
        assertThat(packet.seq()).isEqualTo(1);
        return packet.payload();
    }

    @Test
    void mariadbCliWithLenencAuthDataAndProgramName() {
        // MariaDB 10.11, handshake-native.pcapng frame 6 (seq 1): mariadb CLI 15.1 / libmariadb 3.3.20.
        CapturedPacket reply = Captures.inFrame("handshake-native.pcapng", Direction.CLIENT_TO_SERVER, 6);
        assertThat(reply.seq()).isEqualTo(1);

        HandshakeResponse41 r = roundTrip(reply.payload());

        assertThat(Capabilities.low(r.capabilities())).isEqualTo(0x00bfa284L);
        assertThat(Capabilities.mariaDbExtended(r.capabilities())).isEqualTo(0x1d);
        assertThat(Capabilities.has(r.capabilities(), Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA)).isTrue();
        assertThat(Capabilities.has(r.capabilities(), Capabilities.CLIENT_DEPRECATE_EOF)).isFalse();
        assertThat(r.maxPacketSize()).isEqualTo(1_048_576);
        assertThat(r.characterSet()).isEqualTo(33);
        assertThat(r.username()).isEqualTo("app");
        assertThat(r.authResponse()).hasSize(20)
                .isEqualTo(Bytes.hex("5c600cbcf8eb867d6b9195789f5642d310cf6ab6"));
        assertThat(r.database()).isNull();
        assertThat(r.authPluginName()).isEqualTo("mysql_native_password");
        assertThat(r.connectAttributes()).containsExactly(
                Map.entry("_os", "Linux"), Map.entry("_client_name", "libmariadb"), Map.entry("_pid", "29484"),
                Map.entry("_client_version", "3.3.20"), Map.entry("_platform", "x86_64"),
                Map.entry("program_name", "mysql"), Map.entry("_server_host", "127.0.0.1"));
    }

    @Test
    void sysbenchConnectsWithDatabase() {
        // MariaDB 10.11, prepared-sysbench.pcapng frame 6: sysbench 1.0.20.
        HandshakeResponse41 r = roundTrip(firstClientPacket("prepared-sysbench.pcapng", 0, 6));

        assertThat(Capabilities.low(r.capabilities())).isEqualTo(0x00bfa28cL);
        assertThat(r.characterSet()).isEqualTo(45);
        assertThat(r.database()).isEqualTo("capdb");
        assertThat(r.connectAttributes()).doesNotContainKey("program_name").containsEntry("_client_name", "libmariadb");
    }

    @Test
    void connectorJSendsNoMariaDbExtendedCapabilities() {
        // MariaDB 11.4, connectorj-11.4.pcapng frame 6: Connector/J 9.5.0.
        HandshakeResponse41 r = roundTrip(firstClientPacket("connectorj-11.4.pcapng", 0, 6));

        assertThat(r.capabilities()).isEqualTo(0x013ea20eL);
        assertThat(Capabilities.speaksMariaDbExtensions(r.capabilities())).isTrue();
        assertThat(Capabilities.has(r.capabilities(), Capabilities.CLIENT_DEPRECATE_EOF)).isTrue();
        assertThat(r.maxPacketSize()).isEqualTo(16_777_215);
        // 255 (utf8mb4_0900_ai_ci): without the 5.5.5- prefix Connector/J takes 11.4.5 for a MySQL 8
        // version and picks MySQL 8's default collation; against 10.11 it sends 45.
        assertThat(r.characterSet()).isEqualTo(255);
        assertThat(r.database()).isEqualTo("capdb");
        assertThat(r.authResponse()).hasSize(20);
        assertThat(r.connectAttributes()).containsEntry("_client_name", "MySQL Connector/J")
                .containsEntry("_client_version", "9.5.0");
        assertThat(r.connectAttributes().keySet()).first().isEqualTo("_runtime_version");
    }

    @Test
    void mariadbSlapWorkerSetsRememberOptions() {
        // MariaDB 10.11, mysqlslap.pcapng frame 225: connection 1, a worker.
        HandshakeResponse41 r = roundTrip(firstClientPacket("mysqlslap.pcapng", 1, 225));

        assertThat(Capabilities.low(r.capabilities())).isEqualTo(0x80bfa28cL);
        assertThat(Capabilities.has(r.capabilities(), Capabilities.CLIENT_REMEMBER_OPTIONS)).isTrue();
        assertThat(r.characterSet()).isEqualTo(8);
        assertThat(r.database()).isEqualTo("mysqlslap");
        // Only the setup connection (connection 0, frame 6) sends program_name=mysqlslap; the workers do not.
        assertThat(r.connectAttributes()).doesNotContainKey("program_name").containsEntry("_pid", "30677");
        HandshakeResponse41 setup = roundTrip(firstClientPacket("mysqlslap.pcapng", 0, 6));
        assertThat(setup.connectAttributes()).containsEntry("program_name", "mysqlslap");
        assertThat(setup.database()).isNull();
        assertThat(Capabilities.low(setup.capabilities())).isEqualTo(0x80bfa284L);
    }

    /**
     * The MySQL docs' example with connection attributes
     * (page_protocol_connection_phase_packets_protocol_handshake_response, client 5.6.6-m9):
     * CLIENT_SECURE_CONNECTION without LENENC_CLIENT_DATA, so the auth response has a 1-byte length.
     */
    @Test
    void docsExampleWithConnectAttributes() {
        byte[] payload = concat(
                Bytes.of(0x85, 0xa2, 0x1e, 0x00),            // client flags 0x001ea285 (CLIENT_MYSQL set)
                Bytes.of(0x00, 0x00, 0x00, 0x40),            // max packet size 1 GiB
                Bytes.of(0x08),                              // character set 8
                new byte[23],                                // filler
                ascii("root"), Bytes.of(0x00),               // username
                Bytes.of(0x14),                              // auth response length 20
                Bytes.hex("22 50 79 a2 12 d4 e8 82 e5 b3 f4 1a 97 75 6b c8 be db 9f 80"), // native hash
                ascii("mysql_native_password"), Bytes.of(0x00), // client plugin name
                Bytes.of(0x61),                              // attributes block: 97 bytes
                Bytes.of(0x03), ascii("_os"), Bytes.of(0x09), ascii("debian6.0"),
                Bytes.of(0x0c), ascii("_client_name"), Bytes.of(0x08), ascii("libmysql"),
                Bytes.of(0x04), ascii("_pid"), Bytes.of(0x05), ascii("22344"),
                Bytes.of(0x0f), ascii("_client_version"), Bytes.of(0x08), ascii("5.6.6-m9"),
                Bytes.of(0x09), ascii("_platform"), Bytes.of(0x06), ascii("x86_64"),
                Bytes.of(0x03), ascii("foo"), Bytes.of(0x03), ascii("bar"));
        assertThat(payload).hasSize(0xb2);

        HandshakeResponse41 r = roundTrip(payload);

        assertThat(r.capabilities()).isEqualTo(0x001ea285L);
        assertThat(r.maxPacketSize()).isEqualTo(1L << 30);
        assertThat(r.username()).isEqualTo("root");
        assertThat(r.authResponse()).hasSize(20);
        assertThat(r.database()).isNull();
        assertThat(r.authPluginName()).isEqualTo("mysql_native_password");
        assertThat(r.connectAttributes()).containsExactly(Map.entry("_os", "debian6.0"),
                Map.entry("_client_name", "libmysql"), Map.entry("_pid", "22344"),
                Map.entry("_client_version", "5.6.6-m9"), Map.entry("_platform", "x86_64"), Map.entry("foo", "bar"));
    }

    /** The docs' 5.5 client: no CLIENT_PLUGIN_AUTH, no attributes. */
    @Test
    void docsExampleWithoutPluginAuth() {
        byte[] payload = Bytes.hex("05 a6 03 00 00 00 00 01 08" + " 00".repeat(23)
                + " 72 6f 6f 74 00 14 14 63 6b 70 99 8a b6 9e 96 87 a2 30 9a 40 67 2b 83 38 85 4b");

        HandshakeResponse41 r = roundTrip(payload);

        assertThat(r.capabilities()).isEqualTo(0x0003a605L);
        assertThat(r.maxPacketSize()).isEqualTo(16_777_216);
        assertThat(r.authPluginName()).isNull();
        assertThat(r.connectAttributes()).isEmpty();
    }

    @Test
    void nulTerminatedAuthResponseWithoutSecureConnection() {
        long caps = Capabilities.CLIENT_LONG_PASSWORD | Capabilities.CLIENT_PROTOCOL_41;
        HandshakeResponse41 built = new HandshakeResponse41(caps, 65_536, 33, "u", ascii("old"), null, null, Map.of());
        byte[] payload = RoundTrip.encoded(built::encode);

        HandshakeResponse41 r = roundTrip(payload);

        assertThat(payload).endsWith(Bytes.of('u', 0, 'o', 'l', 'd', 0));
        assertThat(r.authResponse()).isEqualTo(ascii("old"));
    }

    @Test
    void sslRequestFromTheTlsCapture() {
        // MariaDB 10.11, handshake-tls.pcapng frame 6 (seq 1): 32 bytes, then the TLS ClientHello.
        CapturedPacket request = Captures.inFrameBeforeTls("handshake-tls.pcapng", Direction.CLIENT_TO_SERVER, 6);

        SslRequest ssl = RoundTrip.exact(request.payload(),
                payload -> (SslRequest) ClientPacket.decodeHandshakeReply(payload), SslRequest::encode);

        assertThat(Capabilities.low(ssl.capabilities())).isEqualTo(0x00bfaa84L);
        assertThat(Capabilities.mariaDbExtended(ssl.capabilities())).isEqualTo(0x1d);
        assertThat(ssl.maxPacketSize()).isEqualTo(1_048_576);
        assertThat(ssl.characterSet()).isEqualTo(33);
    }

    @Test
    void docsSslRequest() {
        byte[] payload = Bytes.hex("05 ae 03 00 00 00 00 01 08" + " 00".repeat(23));

        SslRequest ssl = RoundTrip.exact(payload, SslRequest::decode, SslRequest::encode);

        assertThat(ssl.capabilities()).isEqualTo(0x0003ae05L);
        assertThat(ssl.characterSet()).isEqualTo(8);
    }

    @Test
    void handshakeReplyDispatchPicksTheResponseForLongerPayloads() {
        byte[] payload = Captures.inFrame("handshake-native.pcapng", Direction.CLIENT_TO_SERVER, 6).payload();

        assertThat(ClientPacket.decodeHandshakeReply(Unpooled.wrappedBuffer(payload)))
                .isInstanceOf(HandshakeResponse41.class);
    }

    @Test
    void aThirtyTwoBytePayloadIsNotAHandshakeResponse() {
        byte[] payload = Captures.inFrameBeforeTls("handshake-tls.pcapng", Direction.CLIENT_TO_SERVER, 6).payload();

        assertThatThrownBy(() -> HandshakeResponse41.decode(Unpooled.wrappedBuffer(payload)))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("payload length 32 is an SSLRequest");
    }

    @Test
    void attributesLongerThanThePacketAreReported() {
        byte[] payload = firstClientPacket("handshake-native.pcapng", 0, 6);
        byte[] cut = Arrays.copyOf(payload, payload.length - 1);

        assertThatThrownBy(() -> HandshakeResponse41.decode(Unpooled.wrappedBuffer(cut)))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("HandshakeResponse41.connection_attributes: length 127 (expected: <= 126 remaining bytes)");
    }
}
