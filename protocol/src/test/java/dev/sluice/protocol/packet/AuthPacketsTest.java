package dev.sluice.protocol.packet;

import static dev.sluice.protocol.packet.Bytes.ascii;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.testing.CapturedPacket;
import dev.sluice.protocol.testing.Captures;
import dev.sluice.protocol.testing.Direction;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AuthPacketsTest {

    @Test
    void ed25519SwitchCarriesABareNonceWithoutTrailingNul() {
        // MariaDB 10.11, handshake-ed25519.pcapng frame 8 (seq 2).
        CapturedPacket packet = Captures.inFrame("handshake-ed25519.pcapng", Direction.SERVER_TO_CLIENT, 8);
        assertThat(packet.seq()).isEqualTo(2);

        AuthSwitchRequest request = RoundTrip.exact(packet.payload(), AuthSwitchRequest::decode,
                AuthSwitchRequest::encode);

        assertThat(request.pluginName()).isEqualTo("client_ed25519");
        assertThat(request.pluginData()).hasSize(32)
                .isEqualTo(Bytes.hex("5e2657f47df17f2e74c4718036da07ace2d17329a59396ad2d9d930dee6893bb"));
    }

    @Test
    void ed25519ClientAnswersWithA64ByteSignature() {
        // MariaDB 10.11, handshake-ed25519.pcapng frame 9 (seq 3).
        CapturedPacket packet = Captures.inFrame("handshake-ed25519.pcapng", Direction.CLIENT_TO_SERVER, 9);
        assertThat(packet.seq()).isEqualTo(3);

        AuthSwitchResponse response = RoundTrip.exact(packet.payload(), AuthSwitchResponse::decode,
                AuthSwitchResponse::encode);

        assertThat(response.data()).hasSize(64).startsWith(Bytes.hex("058c3b49c9cb7b57"));
    }

    @Test
    void nativeSwitchAfterChangeUserEndsWithNul() {
        // MariaDB 10.11, connectorj.pcapng frame 47: the answer to COM_CHANGE_USER is a switch to the
        // plugin already in use, with a new seed.
        CapturedPacket packet = Captures.inFrame("connectorj.pcapng", Direction.SERVER_TO_CLIENT, 47);

        AuthSwitchRequest request = RoundTrip.exact(packet.payload(), AuthSwitchRequest::decode,
                AuthSwitchRequest::encode);

        assertThat(request.pluginName()).isEqualTo("mysql_native_password");
        assertThat(request.pluginData()).hasSize(21).endsWith(0);
        assertThat(request.scrambleWithoutTrailingNul()).isEqualTo(ascii("i6lCEp&h[n:qOsw}-e7#"));

        // frame 48: the client's 20-byte answer
        CapturedPacket answer = Captures.inFrame("connectorj.pcapng", Direction.CLIENT_TO_SERVER, 48);
        AuthSwitchResponse response = RoundTrip.exact(answer.payload(), AuthSwitchResponse::decode,
                AuthSwitchResponse::encode);
        assertThat(response.data()).hasSize(20);
        assertThat(answer.seq()).isEqualTo(2);
    }

    /** caching_sha2_password's fast-auth result (not in the MariaDB captures; layout from the MySQL docs). */
    @Test
    void authMoreDataFastAuthSuccess() {
        byte[] payload = Bytes.of(
                0x01,  // AuthMoreData header
                0x03); // caching_sha2_password: fast authentication succeeded

        AuthMoreData more = RoundTrip.exact(payload, AuthMoreData::decode, AuthMoreData::encode);

        assertThat(more.data()).containsExactly(0x03);
    }

    @Test
    void authMoreDataCarryingAPublicKey() {
        byte[] payload = Bytes.concat(Bytes.of(0x01), ascii("-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----\n"));

        AuthMoreData more = RoundTrip.exact(payload, AuthMoreData::decode, AuthMoreData::encode);

        assertThat(new String(more.data(), StandardCharsets.US_ASCII)).startsWith("-----BEGIN PUBLIC KEY");
    }

    @Test
    void anOkIsNotAnAuthSwitch() {
        assertThatThrownBy(() -> AuthSwitchRequest.decode(Unpooled.wrappedBuffer(Bytes.of(0x00, 0x00, 0x00, 0x02, 0, 0, 0))))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("AuthSwitchRequest.header: 0x00 (expected: 0xfe)");
    }

    @Test
    void switchWithoutNulAfterThePluginNameIsReported() {
        assertThatThrownBy(() -> AuthSwitchRequest.decode(Unpooled.wrappedBuffer(Bytes.concat(Bytes.of(0xfe), ascii("abc")))))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("string<NUL>: no NUL terminator in the remaining 3 bytes in AuthSwitchRequest.plugin_name");
    }
}
