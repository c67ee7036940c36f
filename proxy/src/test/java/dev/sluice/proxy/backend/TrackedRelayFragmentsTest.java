package dev.sluice.proxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.packet.OkPacket;
import dev.sluice.protocol.packet.SessionStateChange;
import dev.sluice.protocol.response.Response;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A split-mode backend connection relays reads as they come, whatever their cuts: a result set
 * then an OK with a session-state block, fed in pieces of every size from 1 byte up. Listeners
 * must get whole packets only, the same bytes the server sent (the OK's block stripped when the
 * client did not ask for one), each response's end once, and the state the OK reported.
 */
class TrackedRelayFragmentsTest {

    private static final long CAPABILITIES = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_TRANSACTIONS
            | Capabilities.CLIENT_SESSION_TRACK;
    private static final int ROWS = 40;

    /** What a listener got: each buffer's bytes, and each response's end. */
    private static final class Recorder implements ResponseListener {
        boolean lossExpected;
        final List<byte[]> buffers = new ArrayList<>();
        final List<Response> responses = new ArrayList<>();
        final List<SessionStateChange> changes = new ArrayList<>();

        @Override
        public void onResponseBytes(ByteBuf bytes) {
            buffers.add(ByteBufUtil.getBytes(bytes));
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
            if (!lossExpected) {
                throw new AssertionError("lost: " + reason);
            }
        }

        @Override
        public void onSessionState(List<SessionStateChange> reported, java.util.Set<String> restored) {
            changes.addAll(reported);
        }

        byte[] all() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            buffers.forEach(out::writeBytes);
            return out.toByteArray();
        }
    }

    /**
     * With CLIENT_DEPRECATE_EOF the result set itself ends in an OK that may carry state (SET
     * STATEMENT ... FOR SELECT does): stripping it must keep the rows before it in the same read.
     */
    @ParameterizedTest
    @CsvSource({"false,false", "true,false", "false,true", "true,true"})
    void piecesOfEverySizeGiveWholePacketsAndTheSameBytes(boolean strip, boolean deprecateEof) {
        byte[] resultSet = resultSet(deprecateEof, true);
        byte[] ok = packet(1, okBody(OkPacket.HEADER, true));
        byte[] stream = concat(resultSet, ok);
        byte[] expected = concat(strip ? resultSet(deprecateEof, false) : resultSet,
                strip ? packet(1, okBody(OkPacket.HEADER, false)) : ok);
        long capabilities = CAPABILITIES | (deprecateEof ? Capabilities.CLIENT_DEPRECATE_EOF : 0);
        for (int piece = 1; piece <= stream.length; piece += piece < 64 ? 1 : 97) {
            Recorder recorder = new Recorder();
            EmbeddedChannel channel = new EmbeddedChannel();
            TrackedConnection connection = trackedConnection(channel, recorder, capabilities);
            connection.stripSessionState(strip);
            connection.expect(Commands.COM_QUERY, recorder);
            connection.expect(Commands.COM_QUERY, recorder);
            for (int at = 0; at < stream.length; at += piece) {
                channel.writeInbound(Unpooled.wrappedBuffer(stream, at, Math.min(piece, stream.length - at)));
            }
            String cut = "pieces of " + piece + " bytes";
            assertThat(recorder.all()).as(cut).isEqualTo(expected);
            for (byte[] buffer : recorder.buffers) {
                assertThat(wholePackets(buffer)).as(cut + ": a buffer of whole packets").isTrue();
            }
            assertThat(recorder.responses).as(cut).hasSize(2);
            assertThat(recorder.responses.get(0).rows()).isEqualTo(ROWS);
            assertThat(recorder.responses.get(1).kind()).isEqualTo(Response.Kind.OK);
            assertThat(recorder.changes).as(cut).hasSize(deprecateEof ? 2 : 1)
                    .containsOnly(new SessionStateChange.Schema("db2"));
            assertThat(connection.schema()).isEqualTo("db2");
            assertThat(connection.idle()).isTrue();
            assertThat(channel.finishAndReleaseAll()).isFalse();
        }
    }

    /** A connection that closes with a packet half read releases what it held of it. */
    @Test
    void aHeldPacketIsReleasedWhenTheConnectionFails() {
        Recorder recorder = new Recorder();
        recorder.lossExpected = true;
        EmbeddedChannel channel = new EmbeddedChannel();
        TrackedConnection connection = trackedConnection(channel, recorder, CAPABILITIES);
        connection.expect(Commands.COM_QUERY, recorder);
        byte[] resultSet = resultSet(false, false);
        channel.writeInbound(Unpooled.wrappedBuffer(resultSet, 0, resultSet.length - 3));
        connection.fail("test");
        assertThat(recorder.responses).isEmpty();
        assertThat(wholePackets(recorder.all())).isTrue();
        channel.finishAndReleaseAll();
    }

    /** A split-mode connection on {@code channel}, schema db1, reporting to {@code recorder}. */
    private static TrackedConnection trackedConnection(EmbeddedChannel channel, Recorder recorder, long capabilities) {
        TrackedConnection connection = new TrackedConnection(channel, new Backend(
                BackendConfig.of(HostPort.parse("127.0.0.1:3306"))), new BackendIdentity("app", capabilities, 45),
                "db1");
        channel.pipeline().addLast(connection);
        connection.listener(recorder);
        return connection;
    }

    private static boolean wholePackets(byte[] bytes) {
        int at = 0;
        while (at < bytes.length) {
            if (bytes.length - at < 4) {
                return false;
            }
            at += 4 + ((bytes[at] & 0xFF) | (bytes[at + 1] & 0xFF) << 8 | (bytes[at + 2] & 0xFF) << 16);
        }
        return at == bytes.length;
    }

    /**
     * One VARCHAR column, ROWS rows of growing length; EOF packets, or with {@code deprecateEof}
     * none after the columns and an OK at the end, with a session-state block when {@code withState}.
     */
    private static byte[] resultSet(boolean deprecateEof, boolean withState) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int seq = 1;
        out.writeBytes(packet(seq++, new byte[] {1}));
        ByteArrayOutputStream column = new ByteArrayOutputStream();
        for (String part : new String[] {"def", "db1", "t", "t", "v", "v"}) {
            column.write(part.length());
            column.writeBytes(part.getBytes(StandardCharsets.US_ASCII));
        }
        column.writeBytes(new byte[] {0x0c, 45, 0, (byte) 0xfc, 3, 0, 0, (byte) 0xfd, 0, 0, 0, 0, 0});
        out.writeBytes(packet(seq++, column.toByteArray()));
        if (!deprecateEof) {
            out.writeBytes(packet(seq++, eof()));
        }
        for (int row = 0; row < ROWS; row++) {
            byte[] value = "x".repeat(1 + row * 3).getBytes(StandardCharsets.US_ASCII);
            byte[] body = new byte[value.length + 1];
            body[0] = (byte) value.length;
            System.arraycopy(value, 0, body, 1, value.length);
            out.writeBytes(packet(seq++ & 0xFF, body));
        }
        out.writeBytes(packet(seq & 0xFF, deprecateEof ? okBody(OkPacket.EOF_HEADER, withState) : eof()));
        return out.toByteArray();
    }

    private static byte[] eof() {
        return new byte[] {(byte) 0xfe, 0, 0, ServerStatus.AUTOCOMMIT, 0};
    }

    private static byte[] okBody(int header, boolean withState) {
        ByteBuf body = Unpooled.buffer();
        int status = ServerStatus.AUTOCOMMIT | (withState ? ServerStatus.SESSION_STATE_CHANGED : 0);
        new OkPacket(header, 0, 0, status, 0, "", withState ? List.of(new SessionStateChange.Schema("db2")) : null)
                .encode(body);
        byte[] bytes = ByteBufUtil.getBytes(body);
        body.release();
        return bytes;
    }

    private static byte[] packet(int sequenceId, byte[] body) {
        byte[] packet = new byte[4 + body.length];
        packet[0] = (byte) body.length;
        packet[1] = (byte) (body.length >> 8);
        packet[2] = (byte) (body.length >> 16);
        packet[3] = (byte) sequenceId;
        System.arraycopy(body, 0, packet, 4, body.length);
        return packet;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = new byte[a.length + b.length];
        System.arraycopy(a, 0, joined, 0, a.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }
}
