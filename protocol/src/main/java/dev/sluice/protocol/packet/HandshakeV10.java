package dev.sluice.protocol.packet;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.Wire;
import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * The server greeting, Protocol::HandshakeV10
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase_packets_protocol_handshake_v10.html).
 * MariaDB clears CLIENT_MYSQL (bit 0) and puts its extended capabilities in the last 4 of the 10
 * reserved bytes; {@link #capabilities} holds both halves (see {@link Capabilities#combine}).
 *
 * @param connectionId the thread id, unsigned 32-bit
 * @param authPluginDataPart1 the first 8 scramble bytes
 * @param authPluginDataLength the length byte as sent (scramble + NUL, or 0 without CLIENT_PLUGIN_AUTH)
 * @param authPluginDataPart2 the rest of the scramble exactly as sent, including its trailing NUL;
 *        empty without CLIENT_SECURE_CONNECTION
 * @param authPluginName null without CLIENT_PLUGIN_AUTH
 */
public record HandshakeV10(
        String serverVersion,
        long connectionId,
        byte[] authPluginDataPart1,
        long capabilities,
        int characterSet,
        int statusFlags,
        int authPluginDataLength,
        byte[] authPluginDataPart2,
        String authPluginName) implements ServerPacket {

    public static final int PROTOCOL_VERSION = 10;
    /** What a MariaDB server puts before its real version so that old replicas accept it. */
    public static final String MARIADB_VERSION_PREFIX = "5.5.5-";

    private static final String NAME = "HandshakeV10";

    /**
     * A greeting carrying {@code seed} (the scramble, 20 bytes as servers send it) the way MySQL
     * and MariaDB lay it out: its first 8 bytes, then the rest followed by a NUL, with the length
     * byte counting scramble and NUL.
     */
    public static HandshakeV10 withSeed(String serverVersion, long connectionId, byte[] seed, long capabilities,
                                        int characterSet, int statusFlags, String authPluginName) {
        if (seed.length < 8) {
            throw new IllegalArgumentException("a scramble of " + seed.length + " bytes (expected: at least 8)");
        }
        byte[] part2 = Arrays.copyOfRange(seed, 8, seed.length + 1);
        return new HandshakeV10(serverVersion, connectionId, Arrays.copyOf(seed, 8), capabilities,
                characterSet, statusFlags, seed.length + 1, part2, authPluginName);
    }

    public static HandshakeV10 decode(ByteBuf payload) {
        int protocol = Fields.int1(payload, "HandshakeV10.protocol_version");
        if (protocol != PROTOCOL_VERSION) {
            throw new ProtocolException("HandshakeV10.protocol_version: " + protocol + " (expected: 10)");
        }
        String serverVersion = Fields.stringNul(payload, "HandshakeV10.server_version");
        long connectionId = Fields.int4(payload, "HandshakeV10.thread_id");
        byte[] part1 = Fields.bytesFix(payload, 8, "HandshakeV10.auth_plugin_data_part_1");
        int filler = Fields.int1(payload, "HandshakeV10.filler");
        if (filler != 0) {
            throw new ProtocolException(String.format("HandshakeV10.filler: 0x%02x (expected: 0x00)", filler));
        }
        long low = Fields.int2(payload, "HandshakeV10.capability_flags_1");
        int characterSet = Fields.int1(payload, "HandshakeV10.character_set");
        int statusFlags = Fields.int2(payload, "HandshakeV10.status_flags");
        low |= (long) Fields.int2(payload, "HandshakeV10.capability_flags_2") << 16;
        int authLength = Fields.int1(payload, "HandshakeV10.auth_plugin_data_len");
        Fields.bytesFix(payload, 6, "HandshakeV10.reserved");
        long extended = Fields.int4(payload, "HandshakeV10.reserved");
        long capabilities = Capabilities.combine(low, Capabilities.speaksMariaDbExtensions(low) ? extended : 0);
        byte[] part2 = new byte[0];
        if (Capabilities.has(capabilities, Capabilities.CLIENT_SECURE_CONNECTION)) {
            part2 = Fields.bytesFix(payload, Math.max(13, authLength - 8), "HandshakeV10.auth_plugin_data_part_2");
        }
        String pluginName = null;
        if (Capabilities.has(capabilities, Capabilities.CLIENT_PLUGIN_AUTH)) {
            pluginName = Fields.stringNul(payload, "HandshakeV10.auth_plugin_name");
        }
        Fields.end(payload, NAME);
        return new HandshakeV10(serverVersion, connectionId, part1, capabilities, characterSet, statusFlags,
                authLength, part2, pluginName);
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(PROTOCOL_VERSION);
        Wire.writeStringNul(out, serverVersion);
        out.writeIntLE((int) connectionId);
        out.writeBytes(authPluginDataPart1);
        out.writeByte(0);
        long low = Capabilities.low(capabilities);
        out.writeShortLE((int) low);
        out.writeByte(characterSet);
        out.writeShortLE(statusFlags);
        out.writeShortLE((int) (low >>> 16));
        out.writeByte(authPluginDataLength);
        out.writeZero(6);
        out.writeIntLE(Capabilities.speaksMariaDbExtensions(capabilities)
                ? (int) Capabilities.mariaDbExtended(capabilities) : 0);
        out.writeBytes(authPluginDataPart2);
        if (authPluginName != null) {
            Wire.writeStringNul(out, authPluginName);
        }
    }

    /** Part 1 and part 2 of the scramble without part 2's terminating NUL (20 bytes for the native plugins). */
    public byte[] scramble() {
        int part2 = authPluginDataPart2.length;
        if (part2 > 0 && authPluginDataPart2[part2 - 1] == 0) {
            part2--;
        }
        byte[] scramble = new byte[authPluginDataPart1.length + part2];
        System.arraycopy(authPluginDataPart1, 0, scramble, 0, authPluginDataPart1.length);
        System.arraycopy(authPluginDataPart2, 0, scramble, authPluginDataPart1.length, part2);
        return scramble;
    }

    /** True for a MariaDB server, which signals extended capabilities by clearing CLIENT_MYSQL. */
    public boolean mariaDb() {
        return Capabilities.speaksMariaDbExtensions(capabilities);
    }

    /** The version without MariaDB's replication-compatibility prefix: "10.11.19-MariaDB-0+deb12u1". */
    public String versionWithoutMariaDbPrefix() {
        return mariaDb() && serverVersion.startsWith(MARIADB_VERSION_PREFIX)
                ? serverVersion.substring(MARIADB_VERSION_PREFIX.length()) : serverVersion;
    }
}
