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
        TcpConnection conn = capture(file).connections().get(connection);
        List<RawPacket> raw = conn.packets(direction);
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
        List<CapturedPacket> found = packets(file, direction).stream().filter(p -> p.frame() == frame).toList();
        if (found.size() != 1) {
            throw new IllegalArgumentException(file + " frame " + frame + " starts " + found.size() + " "
                    + direction + " packets (expected: 1)");
        }
        return found.get(0);
    }
}
