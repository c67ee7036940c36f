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
     * The answers to what follows a session-mode connection's COM_RESET_CONNECTION: OKs to
     * setting the variables the login set again, and {@code SELECT HEX(DATABASE())}'s one row,
     * {@code hex} (null: SQL NULL, no schema), framed as {@code capabilities} have result sets.
     */
    public static byte[] afterResetAnswers(long capabilities, String hex) {
        java.io.ByteArrayOutputStream column = new java.io.ByteArrayOutputStream();
        column.writeBytes(new byte[] {3, 'd', 'e', 'f', 0, 0, 0, 15});   // catalog "def"; schema, table, org_table ""
        column.writeBytes("HEX(DATABASE())".getBytes(StandardCharsets.US_ASCII));
        // org_name "", fixed fields 12: utf8mb3, length 192, VAR_STRING, no flags, 31 decimals, filler
        column.writeBytes(new byte[] {0, 0x0c, 33, 0, (byte) 192, 0, 0, 0, (byte) 0xfd, 0, 0, 0x1f, 0, 0});
        byte[] row = hex == null ? new byte[] {(byte) 0xfb} : lenenc(hex.getBytes(StandardCharsets.US_ASCII));
        // With MariaDB's metadata caching, a byte after the column count says the definitions follow.
        byte[] count = Capabilities.has(capabilities, Capabilities.MARIADB_CLIENT_CACHE_METADATA)
                ? new byte[] {1, 1} : new byte[] {1};
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.writeBytes(ok());
        if (Capabilities.has(capabilities, Capabilities.CLIENT_IGNORE_SPACE | Capabilities.CLIENT_INTERACTIVE)) {
            out.writeBytes(ok());   // to setting sql_mode or wait_timeout as the login did
        }
        out.writeBytes(frame(1, count));
        out.writeBytes(frame(2, column.toByteArray()));
        byte[] eof = {(byte) 0xfe, 0, 0, 2, 0};
        if (Capabilities.has(capabilities, Capabilities.CLIENT_DEPRECATE_EOF)) {
            out.writeBytes(frame(3, row));
            out.writeBytes(frame(4, new byte[] {(byte) 0xfe, 0, 0, 2, 0, 0, 0}));
        } else {
            out.writeBytes(frame(3, eof));
            out.writeBytes(frame(4, row));
            out.writeBytes(frame(5, eof));
        }
        return out.toByteArray();
    }

    private static byte[] lenenc(byte[] value) {
        byte[] out = new byte[1 + value.length];
        out[0] = (byte) value.length;
        System.arraycopy(value, 0, out, 1, value.length);
        return out;
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
