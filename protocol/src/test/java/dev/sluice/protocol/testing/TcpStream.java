package dev.sluice.protocol.testing;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reassembles one direction of a TCP connection by sequence number. Offsets are kept as a 64-bit
 * count of delivered bytes, and each segment is placed by its signed 32-bit distance from the next
 * expected sequence number, so wrap-around of the 32-bit sequence space needs no special case.
 */
final class TcpStream {

    private final ByteArrayOutputStream delivered = new ByteArrayOutputStream();
    /** Segments that arrived ahead of a gap, by stream offset. */
    private final TreeMap<Long, byte[]> pending = new TreeMap<>();
    private boolean started;
    private int nextSeq;
    private long nextOffset;

    /** A SYN fixes the initial sequence number; its own sequence number carries no data. */
    void syn(int seq) {
        if (!started) {
            started = true;
            nextSeq = seq + 1;
        }
    }

    /**
     * Adds one captured segment and returns the bytes it made contiguous (possibly more than its
     * own, possibly none for a retransmission or an out-of-order segment).
     */
    byte[] add(int seq, byte[] data) {
        if (data.length == 0) {
            return data;
        }
        if (!started) {
            // No SYN in the capture: the first data segment defines the start of the stream.
            started = true;
            nextSeq = seq;
        }
        long offset = nextOffset + (seq - nextSeq);
        if (offset + data.length <= nextOffset) {
            return new byte[0];
        }
        pending.merge(offset, data, (old, fresh) -> fresh.length > old.length ? fresh : old);
        ByteArrayOutputStream now = new ByteArrayOutputStream();
        Map.Entry<Long, byte[]> first;
        while ((first = pending.firstEntry()) != null && first.getKey() <= nextOffset) {
            pending.pollFirstEntry();
            long end = first.getKey() + first.getValue().length;
            if (end > nextOffset) {
                byte[] fresh = Arrays.copyOfRange(first.getValue(), (int) (nextOffset - first.getKey()), first.getValue().length);
                now.writeBytes(fresh);
                nextSeq += fresh.length;
                nextOffset = end;
            }
        }
        byte[] bytes = now.toByteArray();
        delivered.writeBytes(bytes);
        return bytes;
    }

    /** The whole stream; fails when a gap was never filled (the capture lost data). */
    byte[] finish(String name) {
        if (!pending.isEmpty()) {
            throw new IllegalStateException(name + ": bytes missing at stream offset " + nextOffset
                    + " (next captured data starts at " + pending.firstKey() + ")");
        }
        return delivered.toByteArray();
    }
}
