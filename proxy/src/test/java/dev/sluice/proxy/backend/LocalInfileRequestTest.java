package dev.sluice.proxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.packet.SessionStateChange;
import dev.sluice.protocol.response.Response;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A rogue server at a backend's address answers a query with a LOCAL INFILE request for a file of
 * its choosing (the classic way to read a client's files): unless the login allowed LOCAL INFILE,
 * the request never reaches the client, and the connection ends with a reason.
 */
class LocalInfileRequestTest {

    private static final long BASE = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_TRANSACTIONS;

    private static final class Recorder implements ResponseListener {
        final List<byte[]> relayed = new ArrayList<>();
        final List<Response> responses = new ArrayList<>();
        String lost;

        @Override
        public void onResponseBytes(ByteBuf bytes) {
            relayed.add(ByteBufUtil.getBytes(bytes));
            bytes.release();
        }

        @Override
        public void onReadComplete() {
        }

        @Override
        public void onResponse(int command, Response response, long latencyNanos) {
            responses.add(response);
        }

        @Override
        public void onBackendLost(String reason) {
            lost = reason;
        }

        @Override
        public void onSessionState(List<SessionStateChange> changes, java.util.Set<String> restored) {
        }
    }

    @ParameterizedTest(name = "framed {0}")
    @ValueSource(booleans = {true, false})
    void aRequestTheLoginDidNotAllowEndsTheConnection(boolean framed) {
        Recorder recorder = new Recorder();
        EmbeddedChannel channel = new EmbeddedChannel();
        BackendConnection connection = connection(channel, recorder, BASE, framed);
        connection.expect(Commands.COM_QUERY, recorder);
        channel.writeInbound(Unpooled.wrappedBuffer(localInfileRequest("/etc/passwd")));
        assertThat(recorder.relayed).as("nothing of the request reaches the client").isEmpty();
        assertThat(recorder.lost).contains("LOCAL INFILE", "limits.allow_local_infile");
        assertThat(channel.isOpen()).isFalse();
        channel.finishAndReleaseAll();
    }

    @ParameterizedTest(name = "framed {0}")
    @ValueSource(booleans = {true, false})
    void anAllowedRequestGoesToTheClient(boolean framed) {
        Recorder recorder = new Recorder();
        EmbeddedChannel channel = new EmbeddedChannel();
        BackendConnection connection = connection(channel, recorder, BASE | Capabilities.CLIENT_LOCAL_FILES, framed);
        connection.expect(Commands.COM_QUERY, recorder);
        byte[] request = localInfileRequest("data.csv");
        channel.writeInbound(Unpooled.wrappedBuffer(request));
        assertThat(recorder.lost).isNull();
        assertThat(recorder.relayed).hasSize(1);
        assertThat(recorder.relayed.get(0)).isEqualTo(request);
        assertThat(connection.expectsClientData()).isTrue();
        channel.finishAndReleaseAll();
    }

    private static BackendConnection connection(EmbeddedChannel channel, Recorder recorder, long capabilities,
                                                boolean framed) {
        Backend backend = new Backend(BackendConfig.of(HostPort.parse("127.0.0.1:3306")));
        BackendIdentity identity = new BackendIdentity("app", capabilities, 45);
        BackendConnection connection = framed
                ? new TrackedConnection(channel, backend, identity, "db1")
                : new RelayedConnection(channel, backend, identity, "db1");
        channel.pipeline().addLast(connection);
        connection.listener(recorder);
        return connection;
    }

    private static byte[] localInfileRequest(String file) {
        byte[] name = file.getBytes(StandardCharsets.US_ASCII);
        byte[] packet = new byte[4 + 1 + name.length];
        packet[0] = (byte) (1 + name.length);
        packet[3] = 1;
        packet[4] = (byte) 0xFB;
        System.arraycopy(name, 0, packet, 5, name.length);
        return packet;
    }
}
