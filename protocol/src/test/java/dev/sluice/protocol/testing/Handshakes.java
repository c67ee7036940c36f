package dev.sluice.protocol.testing;

import dev.sluice.protocol.packet.HandshakeResponse41;
import dev.sluice.protocol.packet.HandshakeV10;
import dev.sluice.protocol.packet.SslRequest;
import io.netty.buffer.Unpooled;

/** What a captured connection's first two packets agreed on, for replaying the rest of it. */
public final class Handshakes {

    private Handshakes() {
    }

    /**
     * The capabilities both sides share: the greeting's and the client's first answer's (a
     * handshake response, or an SSLRequest where the client went on in TLS).
     */
    public static long negotiated(byte[] greeting, byte[] response) {
        long server = HandshakeV10.decode(Unpooled.wrappedBuffer(greeting)).capabilities();
        long client = response.length == SslRequest.LENGTH
                ? SslRequest.decode(Unpooled.wrappedBuffer(response)).capabilities()
                : HandshakeResponse41.decode(Unpooled.wrappedBuffer(response)).capabilities();
        return server & client;
    }
}
