package dev.sluice.protocol.packet;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.ProtocolException;
import io.netty.buffer.ByteBuf;

/**
 * Protocol::SSLRequest (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase_packets_protocol_ssl_request.html):
 * the first 32 bytes of a {@link HandshakeResponse41}, sent alone before the TLS handshake. A client
 * that clears CLIENT_MYSQL puts MariaDB's extended capabilities in the last 4 filler bytes.
 */
public record SslRequest(long capabilities, long maxPacketSize, int characterSet) implements ClientPacket {

    /** Payload length of an SSLRequest, and of the fixed prefix of every HandshakeResponse41. */
    public static final int LENGTH = 32;

    /** True when {@code payload} (not consumed) is an SSLRequest rather than a full handshake response. */
    public static boolean matches(ByteBuf payload) {
        return payload.readableBytes() == LENGTH
                && Capabilities.has(payload.getUnsignedIntLE(payload.readerIndex()), Capabilities.CLIENT_SSL);
    }

    public static SslRequest decode(ByteBuf payload) {
        if (payload.readableBytes() != LENGTH) {
            throw new ProtocolException("SslRequest: payload length " + payload.readableBytes() + " (expected: 32)");
        }
        SslRequest prefix = readPrefix(payload, "SslRequest");
        if (!Capabilities.has(prefix.capabilities(), Capabilities.CLIENT_SSL)) {
            throw new ProtocolException("SslRequest.client_flag: CLIENT_SSL clear (expected: set)");
        }
        return prefix;
    }

    @Override
    public void encode(ByteBuf out) {
        writePrefix(out, capabilities, maxPacketSize, characterSet);
    }

    /** The 32-byte prefix shared with HandshakeResponse41. */
    static SslRequest readPrefix(ByteBuf payload, String packet) {
        long low = Fields.int4(payload, packet + ".client_flag");
        long maxPacketSize = Fields.int4(payload, packet + ".max_packet_size");
        int characterSet = Fields.int1(payload, packet + ".character_set");
        Fields.bytesFix(payload, 19, packet + ".filler");
        long extended = Fields.int4(payload, packet + ".filler");
        long capabilities = Capabilities.combine(low, Capabilities.speaksMariaDbExtensions(low) ? extended : 0);
        return new SslRequest(capabilities, maxPacketSize, characterSet);
    }

    static void writePrefix(ByteBuf out, long capabilities, long maxPacketSize, int characterSet) {
        out.writeIntLE((int) Capabilities.low(capabilities));
        out.writeIntLE((int) maxPacketSize);
        out.writeByte(characterSet);
        out.writeZero(19);
        out.writeIntLE(Capabilities.speaksMariaDbExtensions(capabilities)
                ? (int) Capabilities.mariaDbExtended(capabilities) : 0);
    }
}
