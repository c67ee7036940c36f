package dev.sluice.protocol.testing;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * Both directions of one TCP connection while a capture is read. The client is the side whose
 * SYN carries no ACK; a connection captured without its handshake takes the lower port as the
 * server's.
 */
final class Flow {

    private static final int SYN = 0x02;
    private static final int ACK = 0x10;

    private InetSocketAddress first;
    private InetSocketAddress second;
    private final TcpStream fromFirst = new TcpStream();
    private final TcpStream fromSecond = new TcpStream();
    private final List<Delivery> delivered = new ArrayList<>();
    private InetSocketAddress client;

    static String key(InetSocketAddress a, InetSocketAddress b) {
        String x = a.toString();
        String y = b.toString();
        return x.compareTo(y) < 0 ? x + "|" + y : y + "|" + x;
    }

    void add(int frame, InetSocketAddress src, InetSocketAddress dst, int seq, int flags, byte[] data) {
        if (first == null) {
            first = src;
            second = dst;
        }
        TcpStream stream = src.equals(first) ? fromFirst : fromSecond;
        if ((flags & SYN) != 0) {
            stream.syn(seq);
            if ((flags & ACK) == 0 && client == null) {
                client = src;
            }
            return;
        }
        byte[] fresh = stream.add(seq, data);
        if (fresh.length > 0) {
            delivered.add(new Delivery(src, fresh, frame));
        }
    }

    TcpConnection finish(String name) {
        InetSocketAddress c = client != null ? client : (first.getPort() > second.getPort() ? first : second);
        InetSocketAddress s = c.equals(first) ? second : first;
        byte[] firstBytes = fromFirst.finish(name + " " + first + " -> " + second);
        byte[] secondBytes = fromSecond.finish(name + " " + second + " -> " + first);
        List<Segment> segments = new ArrayList<>();
        for (Delivery d : delivered) {
            Direction direction = d.sender().equals(c) ? Direction.CLIENT_TO_SERVER : Direction.SERVER_TO_CLIENT;
            segments.add(new Segment(direction, d.bytes(), d.frame()));
        }
        boolean clientIsFirst = c.equals(first);
        return new TcpConnection(c, s, clientIsFirst ? firstBytes : secondBytes,
                clientIsFirst ? secondBytes : firstBytes, segments);
    }

    /** Bytes made contiguous by one frame, in capture order. */
    private record Delivery(InetSocketAddress sender, byte[] bytes, int frame) {
    }
}
