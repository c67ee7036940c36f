package dev.sluice.protocol.auth;

import dev.sluice.protocol.Wire;
import dev.sluice.protocol.packet.ClientPacket;
import dev.sluice.protocol.packet.ColumnCount;
import dev.sluice.protocol.packet.ColumnDefinition41;
import dev.sluice.protocol.packet.EofPacket;
import dev.sluice.protocol.packet.ErrPacket;
import dev.sluice.protocol.packet.HandshakeResponse41;
import dev.sluice.protocol.packet.HandshakeV10;
import dev.sluice.protocol.packet.OkPacket;
import dev.sluice.protocol.packet.ServerPacket;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The packets the socket tests send and read, built from the protocol module's packet records. */
final class TestPackets {

    static final int UTF8MB4_0900_AI_CI = 255;
    static final int SERVER_STATUS_AUTOCOMMIT = 2;
    private static final int MYSQL_TYPE_VAR_STRING = 0xFD;

    private TestPackets() {
    }

    static byte[] greeting(String serverVersion, byte[] seed, long capabilities, String pluginName) {
        return Payloads.encode(HandshakeV10.withSeed(serverVersion, 7, seed, capabilities, UTF8MB4_0900_AI_CI,
                SERVER_STATUS_AUTOCOMMIT, pluginName));
    }

    static HandshakeV10 parseGreeting(byte[] payload) {
        return Payloads.decode(payload, HandshakeV10::decode);
    }

    static byte[] handshakeResponse(long capabilities, String user, byte[] authResponse, String pluginName) {
        return encode(new HandshakeResponse41(capabilities, 16 * 1024 * 1024, UTF8MB4_0900_AI_CI, user, authResponse,
                null, pluginName, Map.of()));
    }

    static HandshakeResponse41 parseHandshakeResponse(byte[] payload) {
        return Payloads.decode(payload, HandshakeResponse41::decode);
    }

    static byte[] ok() {
        return Payloads.encode(OkPacket.of(0, 0, SERVER_STATUS_AUTOCOMMIT, 0));
    }

    static byte[] err(int code, String sqlState, String message) {
        return Payloads.encode(new ErrPacket(code, sqlState, message));
    }

    /** A text result set of string columns and one row, without CLIENT_DEPRECATE_EOF: count, definitions, EOF, row, EOF. */
    static List<byte[]> oneRowResultSet(List<String> columns, List<String> values) {
        List<byte[]> packets = new ArrayList<>();
        packets.add(Payloads.encode(new ColumnCount(columns.size(), ColumnCount.METADATA_FULL, 0)));
        for (String column : columns) {
            packets.add(Payloads.encode(new ColumnDefinition41("def", "", "", "", column, column, null,
                    UTF8MB4_0900_AI_CI, 1024, MYSQL_TYPE_VAR_STRING, 0, 0, null)));
        }
        packets.add(Payloads.encode(new EofPacket(0, SERVER_STATUS_AUTOCOMMIT)));
        ByteBuf row = Unpooled.buffer();
        try {
            for (String value : values) {
                if (value == null) {
                    row.writeByte(0xFB);
                } else {
                    Wire.writeStringLenenc(row, value);
                }
            }
            packets.add(ByteBufUtil.getBytes(row));
        } finally {
            row.release();
        }
        packets.add(Payloads.encode(new EofPacket(0, SERVER_STATUS_AUTOCOMMIT)));
        return packets;
    }

    private static byte[] encode(ClientPacket packet) {
        ByteBuf buf = Unpooled.buffer();
        try {
            packet.encode(buf);
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }
}
