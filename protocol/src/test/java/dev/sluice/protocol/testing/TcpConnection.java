package dev.sluice.protocol.testing;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * One captured TCP connection after reassembly.
 *
 * @param clientToServer the whole client→server byte stream
 * @param serverToClient the whole server→client byte stream
 * @param segments both directions interleaved in capture (time) order
 */
public record TcpConnection(
        InetSocketAddress client,
        InetSocketAddress server,
        byte[] clientToServer,
        byte[] serverToClient,
        List<Segment> segments) {

    public TcpConnection {
        segments = List.copyOf(segments);
    }

    public byte[] bytes(Direction direction) {
        return direction == Direction.CLIENT_TO_SERVER ? clientToServer : serverToClient;
    }

    /** The MySQL packets one direction carried (physical packets, split at 0xFFFFFF, not joined). */
    public List<RawPacket> packets(Direction direction) {
        return MysqlPackets.split(bytes(direction));
    }
}
