package dev.sluice.protocol.packet;

import static dev.sluice.protocol.packet.Bytes.ascii;
import static dev.sluice.protocol.packet.Bytes.concat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.testing.CapturedPacket;
import dev.sluice.protocol.testing.Captures;
import dev.sluice.protocol.testing.Direction;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class HandshakeV10Test {

    /** Both MariaDB servers greet with these (captures/README.md, "Capabilities"). */
    private static final long MARIADB_GREETING_CAPS = Capabilities.combine(0x81fffffeL, 0x1d);

    @Test
    void mariaDb1011GreetingWithTheReplicationPrefixAndExtendedCapabilities() {
        // MariaDB 10.11.19, handshake-native.pcapng frame 4 (seq 0).
        CapturedPacket greeting = Captures.inFrame("handshake-native.pcapng", Direction.SERVER_TO_CLIENT, 4);
        assertThat(greeting.seq()).isZero();

        HandshakeV10 h = RoundTrip.exact(greeting.payload(), HandshakeV10::decode, HandshakeV10::encode);

        assertThat(h.serverVersion()).isEqualTo("5.5.5-10.11.19-MariaDB-0+deb12u1");
        assertThat(h.versionWithoutMariaDbPrefix()).isEqualTo("10.11.19-MariaDB-0+deb12u1");
        assertThat(h.mariaDb()).isTrue();
        assertThat(h.connectionId()).isEqualTo(6);
        assertThat(h.authPluginDataPart1()).isEqualTo(ascii("ir!J1T5L"));
        assertThat(h.capabilities()).isEqualTo(MARIADB_GREETING_CAPS);
        assertThat(Capabilities.mariaDbExtended(h.capabilities())).isEqualTo(0x1d);
        assertThat(Capabilities.has(h.capabilities(), Capabilities.MARIADB_CLIENT_CACHE_METADATA)).isTrue();
        assertThat(Capabilities.has(h.capabilities(), Capabilities.MARIADB_CLIENT_COM_MULTI)).isFalse();
        assertThat(h.characterSet()).isEqualTo(8);
        assertThat(h.statusFlags()).isEqualTo(ServerStatus.AUTOCOMMIT);
        assertThat(h.authPluginDataLength()).isEqualTo(21);
        assertThat(h.authPluginDataPart2()).isEqualTo(concat(ascii("\\k(\"n'q+}Wy{"), Bytes.of(0)));
        assertThat(h.scramble()).isEqualTo(ascii("ir!J1T5L\\k(\"n'q+}Wy{"));
        assertThat(h.authPluginName()).isEqualTo("mysql_native_password");
    }

    @Test
    void mariaDb114GreetingHasNoPrefixAndTheSameCapabilities() {
        // MariaDB 11.4.5, handshake-native-11.4.pcapng frame 4.
        CapturedPacket greeting = Captures.inFrame("handshake-native-11.4.pcapng", Direction.SERVER_TO_CLIENT, 4);

        HandshakeV10 h = RoundTrip.exact(greeting.payload(), HandshakeV10::decode, HandshakeV10::encode);

        assertThat(h.serverVersion()).isEqualTo("11.4.5-MariaDB");
        assertThat(h.versionWithoutMariaDbPrefix()).isEqualTo("11.4.5-MariaDB");
        assertThat(h.capabilities()).isEqualTo(MARIADB_GREETING_CAPS);
        assertThat(h.connectionId()).isEqualTo(6);
        assertThat(h.scramble()).hasSize(20).isEqualTo(ascii("9uf{Z1$_3\"L9woGSMg>A"));
        assertThat(h.authPluginName()).isEqualTo("mysql_native_password");
    }

    @Test
    void aGreetingBuiltFromTheScrambleIsTheOneMariaDbSent() {
        // What the proxy sends its clients: built from a 20-byte scramble, byte for byte MariaDB 11.4's greeting.
        CapturedPacket greeting = Captures.inFrame("handshake-native-11.4.pcapng", Direction.SERVER_TO_CLIENT, 4);
        HandshakeV10 sent = RoundTrip.exact(greeting.payload(), HandshakeV10::decode, HandshakeV10::encode);

        HandshakeV10 built = HandshakeV10.withSeed(sent.serverVersion(), sent.connectionId(), sent.scramble(),
                sent.capabilities(), sent.characterSet(), sent.statusFlags(), sent.authPluginName());

        RoundTrip.assertSameBytes(RoundTrip.encoded(built::encode), greeting.payload());
        assertThatThrownBy(() -> HandshakeV10.withSeed("11.4.5-MariaDB", 1, new byte[7], 0, 8, 2, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("7 bytes");
    }

    /**
     * The MySQL docs' example greeting (page_protocol_connection_phase_packets_protocol_handshake_v10,
     * MySQL 5.6.4-m7-log, CLIENT_PLUGIN_AUTH set), payload only.
     */
    @Test
    void docsExampleWithPluginAuth() {
        byte[] payload = concat(
                Bytes.of(0x0a),                                  // protocol version 10
                ascii("5.6.4-m7-log"), Bytes.of(0x00),           // server version, NUL-terminated
                Bytes.of(0x56, 0x0a, 0x00, 0x00),                // connection id 2646
                ascii("RB3vz&Gr"),                               // auth-plugin-data-part-1 (8 bytes)
                Bytes.of(0x00),                                  // filler
                Bytes.of(0xff, 0xff),                            // capability flags, lower 2 bytes
                Bytes.of(0x08),                                  // character set 8, latin1_swedish_ci
                Bytes.of(0x02, 0x00),                            // status: SERVER_STATUS_AUTOCOMMIT
                Bytes.of(0x0f, 0xc0),                            // capability flags, upper 2 bytes
                Bytes.of(0x15),                                  // auth_plugin_data_len 21 (20 + NUL)
                Bytes.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0),          // reserved, all 0 (CLIENT_MYSQL is set)
                ascii("+yD&/ZZ305ZG"), Bytes.of(0x00),           // auth-plugin-data-part-2, 13 bytes
                ascii("mysql_native_password"), Bytes.of(0x00)); // auth plugin name

        HandshakeV10 h = RoundTrip.exact(payload, HandshakeV10::decode, HandshakeV10::encode);

        assertThat(h.serverVersion()).isEqualTo("5.6.4-m7-log");
        assertThat(h.connectionId()).isEqualTo(2646);
        assertThat(h.capabilities()).isEqualTo(0xc00fffffL);
        assertThat(h.mariaDb()).isFalse();
        assertThat(h.characterSet()).isEqualTo(8);
        assertThat(h.statusFlags()).isEqualTo(ServerStatus.AUTOCOMMIT);
        assertThat(h.scramble()).isEqualTo(ascii("RB3vz&Gr+yD&/ZZ305ZG"));
        assertThat(h.authPluginName()).isEqualTo("mysql_native_password");
    }

    /** The docs' older example (MySQL 5.5.2-m2): no CLIENT_PLUGIN_AUTH, so no plugin name. */
    @Test
    void docsExampleWithoutPluginAuth() {
        byte[] payload = Bytes.hex("0a 35 2e 35 2e 32 2d 6d 32 00 52 00 00 00 22 3d 4e 50 29 75 39 56 00 ff ff 08 02 00"
                + " 00 00 00 00 00 00 00 00 00 00 00 00 00 29 64 40 52 5c 55 78 7a 7c 21 29 4b 00");

        HandshakeV10 h = RoundTrip.exact(payload, HandshakeV10::decode, HandshakeV10::encode);

        assertThat(h.serverVersion()).isEqualTo("5.5.2-m2");
        assertThat(h.connectionId()).isEqualTo(0x52);
        assertThat(h.capabilities()).isEqualTo(0xffffL);
        assertThat(h.authPluginDataLength()).isZero();
        assertThat(h.authPluginName()).isNull();
        assertThat(h.scramble()).isEqualTo(ascii("\"=NP)u9V)d@R\\Uxz|!)K"));
    }

    @Test
    void mariaDbExtendedCapabilitiesAreIgnoredWhenClientMysqlIsSet() {
        // A MySQL server sets bit 0; whatever its reserved bytes hold is not MariaDB's extension.
        byte[] payload = Bytes.hex("0a 38 2e 34 00 01 00 00 00 61 62 63 64 65 66 67 68 00 ff ff 2d 02 00 ff df 15"
                + " 00 00 00 00 00 00 1d 00 00 00 69 6a 6b 6c 6d 6e 6f 70 71 72 73 74 00"
                + " 63 61 63 68 69 6e 67 5f 73 68 61 32 5f 70 61 73 73 77 6f 72 64 00");

        HandshakeV10 h = HandshakeV10.decode(Unpooled.wrappedBuffer(payload));

        assertThat(h.capabilities()).isEqualTo(0xdfffffffL);
        assertThat(h.authPluginName()).isEqualTo("caching_sha2_password");
    }

    @Test
    void protocolVersion9IsRefused() {
        assertThatThrownBy(() -> HandshakeV10.decode(Unpooled.wrappedBuffer(Bytes.of(0x09, 0x33, 0x00))))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("HandshakeV10.protocol_version: 9 (expected: 10)");
    }

    @Test
    void truncatedGreetingNamesTheField() {
        byte[] full = Captures.inFrame("handshake-native.pcapng", Direction.SERVER_TO_CLIENT, 4).payload();
        byte[] cut = Arrays.copyOf(full, 48); // ends inside capability_flags_1

        assertThatThrownBy(() -> HandshakeV10.decode(Unpooled.wrappedBuffer(cut)))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("int<2>: needs 2 bytes (available: 1) in HandshakeV10.capability_flags_1");
    }
}
