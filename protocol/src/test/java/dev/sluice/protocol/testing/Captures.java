package dev.sluice.protocol.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The test captures as MySQL packets tagged with their frame numbers, read once per file and
 * shared by the tests of a run.
 */
public final class Captures {

    private static final Map<String, Capture> CACHE = new ConcurrentHashMap<>();

    private Captures() {
    }

    public static Capture capture(String file) {
        return CACHE.computeIfAbsent(file, Pcapng::readResource);
    }

    /** Packets of one direction of a single-connection capture. */
    public static List<CapturedPacket> packets(String file, Direction direction) {
        return packets(file, 0, direction);
    }

    public static List<CapturedPacket> packets(String file, int connection, Direction direction) {
        return tag(file, connection, direction, false);
    }

    /** The plaintext packets before a connection switches to TLS (handshake-tls.pcapng). */
    public static List<CapturedPacket> packetsBeforeTls(String file, Direction direction) {
        return tag(file, 0, direction, true);
    }

    private static List<CapturedPacket> tag(String file, int connection, Direction direction, boolean beforeTls) {
        TcpConnection conn = capture(file).connections().get(connection);
        List<RawPacket> raw = beforeTls ? MysqlPackets.splitPrefix(conn.bytes(direction), Integer.MAX_VALUE)
                : conn.packets(direction);
        List<CapturedPacket> tagged = new ArrayList<>(raw.size());
        int segment = -1;
        long segmentEnd = 0;
        long offset = 0;
        List<Segment> segments = conn.segments();
        for (int i = 0; i < raw.size(); i++) {
            while (segmentEnd <= offset) {
                segment++;
                if (segments.get(segment).direction() == direction) {
                    segmentEnd += segments.get(segment).bytes().length;
                }
            }
            RawPacket p = raw.get(i);
            tagged.add(new CapturedPacket(file, direction, i, p.seq(), segments.get(segment).frame(), p.payload()));
            offset += 4 + p.payload().length;
        }
        return tagged;
    }

    /** The packet that starts in {@code frame}; fails unless exactly one does. */
    public static CapturedPacket inFrame(String file, Direction direction, int frame) {
        return only(file, direction, frame, packets(file, direction));
    }

    public static CapturedPacket inFrameBeforeTls(String file, Direction direction, int frame) {
        return only(file, direction, frame, packetsBeforeTls(file, direction));
    }

    private static CapturedPacket only(String file, Direction direction, int frame, List<CapturedPacket> packets) {
        List<CapturedPacket> found = packets.stream().filter(p -> p.frame() == frame).toList();
        if (found.size() != 1) {
            throw new IllegalArgumentException(file + " frame " + frame + " starts " + found.size() + " "
                    + direction + " packets (expected: 1)");
        }
        return found.get(0);
    }
}
