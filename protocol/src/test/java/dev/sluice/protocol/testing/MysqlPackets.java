package dev.sluice.protocol.testing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Splits a reassembled TCP byte stream into MySQL packets (3-byte length, 1-byte sequence id). */
public final class MysqlPackets {

    private MysqlPackets() {
    }

    /** Every packet in {@code stream}; the stream must end on a packet boundary. */
    public static List<RawPacket> split(byte[] stream) {
        List<RawPacket> packets = splitPrefix(stream, Integer.MAX_VALUE);
        int consumed = packets.stream().mapToInt(p -> 4 + p.payload().length).sum();
        if (consumed != stream.length) {
            throw new IllegalArgumentException("stream ends inside a packet: " + (stream.length - consumed)
                    + " bytes left at offset " + consumed + " after " + packets.size() + " packets");
        }
        return packets;
    }

    /**
     * At most {@code count} leading packets, stopping quietly at the first incomplete one; for
     * streams that switch to TLS after the SSLRequest.
     */
    public static List<RawPacket> splitPrefix(byte[] stream, int count) {
        List<RawPacket> packets = new ArrayList<>();
        int offset = 0;
        while (packets.size() < count && stream.length - offset >= 4) {
            int length = (stream[offset] & 0xFF) | (stream[offset + 1] & 0xFF) << 8 | (stream[offset + 2] & 0xFF) << 16;
            int seq = stream[offset + 3] & 0xFF;
            if (stream.length - offset - 4 < length) {
                break;
            }
            packets.add(new RawPacket(seq, Arrays.copyOfRange(stream, offset + 4, offset + 4 + length)));
            offset += 4 + length;
        }
        return packets;
    }
}
