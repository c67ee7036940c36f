package dev.sluice.proxy.testing;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.packet.OkPacket;
import dev.sluice.protocol.packet.SessionStateChange;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Server packets the captures do not have (they were taken without session tracking): an OK that
 * reports session state as MariaDB does when the proxy asks it to, framed with its sequence id.
 */
public final class ServerPackets {

    /** What the proxy asks of split-mode backends and the tests' OKs may report. */
    public static final long TRACKING_CAPABILITIES = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_TRANSACTIONS
            | Capabilities.CLIENT_SESSION_TRACK | Capabilities.CLIENT_MULTI_RESULTS | Capabilities.CLIENT_PLUGIN_AUTH;

    private ServerPackets() {
    }

    /** An OK with {@code status} and, when given, the session state changes it reports. */
    public static byte[] ok(int sequenceId, int status, SessionStateChange... changes) {
        ByteBuf body = Unpooled.buffer();
        boolean reports = changes.length > 0;
        new OkPacket(OkPacket.HEADER, 0, 0, status | (reports ? ServerStatus.SESSION_STATE_CHANGED : 0), 0, "",
                reports ? List.of(changes) : null).encode(body);
        byte[] payload = ByteBufUtil.getBytes(body);
        body.release();
        return frame(sequenceId, payload);
    }

    /**
     * The OKs to what follows a session-mode connection's COM_RESET_CONNECTION: setting the
     * character set variables again, and for {@code capabilities} with CLIENT_IGNORE_SPACE or
     * CLIENT_INTERACTIVE, sql_mode or wait_timeout as the login set them.
     */
    public static byte[] afterResetAnswers(long capabilities) {
        return Capabilities.has(capabilities, Capabilities.CLIENT_IGNORE_SPACE | Capabilities.CLIENT_INTERACTIVE)
                ? concatOks(2) : concatOks(1);
    }

    private static byte[] concatOks(int count) {
        byte[] one = ok();
        byte[] all = new byte[one.length * count];
        for (int i = 0; i < count; i++) {
            System.arraycopy(one, 0, all, i * one.length, one.length);
        }
        return all;
    }

    /** An autocommit OK with nothing to report. */
    public static byte[] ok() {
        return ok(1, ServerStatus.AUTOCOMMIT);
    }

    /** {@code name} = {@code value}, as session tracking reports a system variable. */
    public static SessionStateChange variable(String name, String value) {
        return new SessionStateChange.SystemVariable(name, value);
    }

    public static byte[] frame(int sequenceId, byte[] payload) {
        byte[] framed = new byte[4 + payload.length];
        framed[0] = (byte) payload.length;
        framed[1] = (byte) (payload.length >> 8);
        framed[2] = (byte) (payload.length >> 16);
        framed[3] = (byte) sequenceId;
        System.arraycopy(payload, 0, framed, 4, payload.length);
        return framed;
    }

    /** A client command frame: sequence id 0, the command byte, its argument. */
    public static byte[] command(int command, String argument) {
        byte[] text = argument.getBytes(StandardCharsets.UTF_8);
        byte[] payload = new byte[1 + text.length];
        payload[0] = (byte) command;
        System.arraycopy(text, 0, payload, 1, text.length);
        return frame(0, payload);
    }
}
