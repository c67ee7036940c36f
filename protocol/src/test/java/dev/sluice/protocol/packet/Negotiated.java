package dev.sluice.protocol.packet;

import dev.sluice.protocol.testing.Captures;
import dev.sluice.protocol.testing.Direction;
import io.netty.buffer.Unpooled;

/** The capabilities a captured connection negotiated: the greeting's AND the handshake response's. */
final class Negotiated {

    private Negotiated() {
    }

    static long capabilities(String file) {
        return capabilities(file, 0);
    }

    static long capabilities(String file, int connection) {
        byte[] greeting = Captures.packets(file, connection, Direction.SERVER_TO_CLIENT).get(0).payload();
        byte[] response = Captures.packets(file, connection, Direction.CLIENT_TO_SERVER).get(0).payload();
        long server = HandshakeV10.decode(Unpooled.wrappedBuffer(greeting)).capabilities();
        long client = HandshakeResponse41.decode(Unpooled.wrappedBuffer(response)).capabilities();
        return server & client;
    }
}
