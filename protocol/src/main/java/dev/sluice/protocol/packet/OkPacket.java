package dev.sluice.protocol.packet;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.Wire;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * OK_Packet (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_basic_ok_packet.html),
 * always in the protocol 4.1 layout (status and warnings present).
 *
 * <p>The info string is length-encoded whenever it is present: both MySQL's and MariaDB's
 * {@code net_send_ok} write it with {@code net_store_data}, with or without CLIENT_SESSION_TRACK
 * (the docs' string&lt;EOF&gt; for the case without does not match what servers send). It is
 * left out when empty unless session state follows.
 *
 * @param header 0x00, or 0xFE for the OK that replaces EOF under CLIENT_DEPRECATE_EOF
 * @param affectedRows unsigned
 * @param lastInsertId unsigned
 * @param info "" when absent; MariaDB 11.4 sends 0x01 + 64 hex characters after authentication
 * @param sessionStateChanges null when the packet has no session state block (it has one only with
 *        CLIENT_SESSION_TRACK negotiated and SERVER_SESSION_STATE_CHANGED in the status)
 */
public record OkPacket(
        int header,
        long affectedRows,
        long lastInsertId,
        int statusFlags,
        int warnings,
        String info,
        List<SessionStateChange> sessionStateChanges) implements ServerPacket {

    public static final int HEADER = 0x00;
    /** Header of the OK that ends a result set when CLIENT_DEPRECATE_EOF is negotiated. */
    public static final int EOF_HEADER = 0xFE;

    public OkPacket {
        if (header != HEADER && header != EOF_HEADER) {
            throw new IllegalArgumentException(String.format("OkPacket header 0x%02x (expected: 0x00 or 0xfe)", header));
        }
        sessionStateChanges = sessionStateChanges == null ? null : List.copyOf(sessionStateChanges);
    }

    /** A plain OK: header 0x00, no info, no session state. */
    public static OkPacket of(long affectedRows, long lastInsertId, int statusFlags, int warnings) {
        return new OkPacket(HEADER, affectedRows, lastInsertId, statusFlags, warnings, "", null);
    }

    public static OkPacket decode(ByteBuf payload, long capabilities) {
        int header = Fields.int1(payload, "OkPacket.header");
        if (header != HEADER && header != EOF_HEADER) {
            throw new ProtocolException(String.format("OkPacket.header: 0x%02x (expected: 0x00 or 0xfe)", header));
        }
        long affectedRows = Fields.intLenenc(payload, "OkPacket.affected_rows");
        long lastInsertId = Fields.intLenenc(payload, "OkPacket.last_insert_id");
        int status = Fields.int2(payload, "OkPacket.status_flags");
        int warnings = Fields.int2(payload, "OkPacket.warnings");
        boolean stateChanged = Capabilities.has(capabilities, Capabilities.CLIENT_SESSION_TRACK)
                && ServerStatus.has(status, ServerStatus.SESSION_STATE_CHANGED);
        String info = "";
        if (payload.isReadable() || stateChanged) {
            info = Fields.stringLenenc(payload, "OkPacket.info");
        }
        List<SessionStateChange> changes = null;
        if (stateChanged) {
            changes = readSessionState(payload);
        }
        Fields.end(payload, "OkPacket");
        return new OkPacket(header, affectedRows, lastInsertId, status, warnings, info, changes);
    }

    private static List<SessionStateChange> readSessionState(ByteBuf payload) {
        long total = Fields.intLenenc(payload, "OkPacket.session_state_info");
        if (total < 0 || total > payload.readableBytes()) {
            throw new ProtocolException("OkPacket.session_state_info: length " + total + " (expected: <= "
                    + payload.readableBytes() + " remaining bytes)");
        }
        ByteBuf block = payload.readSlice((int) total);
        List<SessionStateChange> changes = new ArrayList<>();
        while (block.isReadable()) {
            int type = Fields.int1(block, "OkPacket.session_state_info type");
            ByteBuf data = block.readSlice((int) checkedLength(block, Fields.intLenenc(block,
                    "OkPacket.session_state_info data length")));
            changes.add(SessionStateChange.decode(type, data));
        }
        return changes;
    }

    private static long checkedLength(ByteBuf block, long length) {
        if (length < 0 || length > block.readableBytes()) {
            throw new ProtocolException("OkPacket.session_state_info data: length " + length + " (expected: <= "
                    + block.readableBytes() + " remaining bytes)");
        }
        return length;
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(header);
        Wire.writeIntLenenc(out, affectedRows);
        Wire.writeIntLenenc(out, lastInsertId);
        out.writeShortLE(statusFlags);
        out.writeShortLE(warnings);
        if (sessionStateChanges != null || !info.isEmpty()) {
            Wire.writeStringLenenc(out, info);
        }
        if (sessionStateChanges != null) {
            long total = 0;
            for (SessionStateChange change : sessionStateChanges) {
                total += 1 + Wire.lenencSize(change.dataLength()) + change.dataLength();
            }
            Wire.writeIntLenenc(out, total);
            for (SessionStateChange change : sessionStateChanges) {
                out.writeByte(change.type());
                Wire.writeIntLenenc(out, change.dataLength());
                change.writeData(out);
            }
        }
    }
}
