package dev.sluice.protocol.testing;

import java.util.List;

/**
 * What {@link Pcapng} read from one file.
 *
 * @param frames the number of captured packets (enhanced and simple packet blocks)
 * @param connections the TCP connections in the order their first frame appeared
 */
public record Capture(int frames, List<TcpConnection> connections) {

    public Capture {
        connections = List.copyOf(connections);
    }

    /** The one connection of a single-connection capture. */
    public TcpConnection connection() {
        if (connections.size() != 1) {
            throw new IllegalStateException("capture has " + connections.size() + " TCP connections (expected: 1)");
        }
        return connections.get(0);
    }
}
