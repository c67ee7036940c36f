package dev.sluice.protocol.packet;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.ProtocolException;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * ERR_Packet (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_basic_err_packet.html).
 * With CLIENT_PROTOCOL_41 the message is preceded by '#' and a 5-character SQL state; an ERR sent
 * before the client's capabilities are known (a refused connection) has neither. Error code 0xFFFF
 * is not an error but MariaDB's {@link ProgressReport}, which this decoder refuses.
 *
 * @param sqlState five ASCII characters (e.g. "42S02"), or null when the packet carries none
 */
public record ErrPacket(int errorCode, String sqlState, String errorMessage) implements ServerPacket {

    public static final int HEADER = 0xFF;
    private static final int SQL_STATE_MARKER = '#';

    public ErrPacket {
        if (sqlState != null && sqlState.length() != 5) {
            throw new IllegalArgumentException("ErrPacket SQL state '" + sqlState + "' (expected: 5 characters)");
        }
    }

    public static ErrPacket decode(ByteBuf payload, long capabilities) {
        Fields.header(payload, HEADER, "ErrPacket");
        int code = Fields.int2(payload, "ErrPacket.error_code");
        if (code == ProgressReport.ERROR_CODE) {
            throw new ProtocolException("ErrPacket.error_code: 0xffff is a MariaDB progress report, not an error "
                    + "(expected: decode with ProgressReport)");
        }
        String sqlState = null;
        if (Capabilities.has(capabilities, Capabilities.CLIENT_PROTOCOL_41) && payload.isReadable()
                && payload.getByte(payload.readerIndex()) == SQL_STATE_MARKER) {
            payload.skipBytes(1);
            // Latin-1 maps each byte to one char, so any 5 bytes give a 5-character state that re-encodes exactly.
            sqlState = new String(Fields.bytesFix(payload, 5, "ErrPacket.sql_state"), StandardCharsets.ISO_8859_1);
        }
        return new ErrPacket(code, sqlState, Fields.stringEof(payload));
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(HEADER);
        out.writeShortLE(errorCode);
        if (sqlState != null) {
            out.writeByte(SQL_STATE_MARKER);
            out.writeCharSequence(sqlState, StandardCharsets.ISO_8859_1);
        }
        out.writeCharSequence(errorMessage, StandardCharsets.UTF_8);
    }
}
