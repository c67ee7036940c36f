package dev.sluice.proxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.BackendTlsConfig;
import dev.sluice.config.HostPort;
import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.auth.AuthPlugins;
import dev.sluice.protocol.auth.AuthSeed;
import dev.sluice.protocol.auth.ClientAuthOptions;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.protocol.packet.HandshakeV10;
import dev.sluice.proxy.command.Replies;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Promise;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A MySQL 8 backend that asks for the full caching_sha2 password (04 after the scramble): over a
 * connection that is not verified TLS, and without a configured key, the proxy must not ask the
 * server for its key (02): whoever answers at the backend's address would get the password.
 */
class BackendFullAuthTest {

    private static final long SERVER_CAPABILITIES = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SECURE_CONNECTION
            | Capabilities.CLIENT_PLUGIN_AUTH | Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA
            | Capabilities.CLIENT_LONG_PASSWORD | Capabilities.CLIENT_TRANSACTIONS | Capabilities.CLIENT_CONNECT_WITH_DB
            | Capabilities.CLIENT_MULTI_RESULTS | Capabilities.CLIENT_DEPRECATE_EOF | Capabilities.CLIENT_SESSION_TRACK;

    @Test
    void byDefaultTheLoginFailsNamingWhatWouldLetItSendThePassword() {
        ClientAuthOptions defaults = BackendAuthOptions.from(BackendTlsConfig.defaults());
        Run run = fullAuthenticationAsked(defaults);
        assertThat(run.sent()).as("nothing after the handshake response: no key request").isNull();
        assertThat(run.ended()).isTrue();
        assertThat(run.promise().cause()).hasMessageContaining("caching_sha2_password")
                .hasMessageContaining("public key");
    }

    @Test
    void unverifiedTlsIsNoPlaceForTheClearPassword() {
        assertThat(BackendAuthOptions.from(new BackendTlsConfig(true, false, Optional.empty())).secure()).isFalse();
        assertThat(BackendAuthOptions.from(new BackendTlsConfig(true, true, Optional.empty())).secure()).isTrue();
    }

    @Test
    void theEscapeHatchAsksForTheKey() {
        ClientAuthOptions allowed = BackendAuthOptions.from(new BackendTlsConfig(false, false, Optional.empty(),
                Optional.empty(), true));
        Run run = fullAuthenticationAsked(allowed);
        assertThat(run.sent()).as("the key request").containsExactly(2);
        assertThat(run.ended()).as("waiting for the key").isFalse();
    }

    /** {@code ended}: the login had ended (with the promise's outcome) before the channel closed. */
    private record Run(byte[] sent, Promise<BackendConnection> promise, boolean ended) {
    }

    /** Greets as MySQL 8 with caching_sha2_password, takes the handshake response, answers 04. */
    private static Run fullAuthenticationAsked(ClientAuthOptions options) {
        Backend backend = new Backend(new BackendConfig("mysql8", new HostPort("127.0.0.1", 3306),
                BackendConfig.Role.PRIMARY, 1, 10));
        EmbeddedChannel channel = new EmbeddedChannel();
        Promise<BackendConnection> promise = channel.eventLoop().newPromise();
        channel.pipeline().addLast(new RawPacketDecoder(), new BackendLoginHandler(backend,
                new LoginRequest("app", "secret".getBytes(StandardCharsets.UTF_8), 0, 45, null),
                AuthPlugins.standard(), null, options, promise, identity -> { }, false));
        HandshakeV10 greeting = HandshakeV10.withSeed("8.0.40", 7, AuthSeed.generate(), SERVER_CAPABILITIES, 45, 2,
                "caching_sha2_password");
        channel.writeInbound(Replies.frame(ByteBufAllocator.DEFAULT, 0, greeting));
        ByteBuf response = channel.readOutbound();
        assertThat(response).as("the handshake response").isNotNull();
        response.release();
        channel.writeInbound(Replies.frame(ByteBufAllocator.DEFAULT, 2, new byte[] {1, 4}));
        ByteBuf next = channel.readOutbound();
        byte[] sent = null;
        if (next != null) {
            ByteBuf payload = RawPacketDecoder.payload(next);
            sent = new byte[payload.readableBytes()];
            payload.readBytes(sent);
            next.release();
        }
        boolean ended = promise.isDone();
        channel.finishAndReleaseAll();
        return new Run(sent, promise, ended);
    }
}
