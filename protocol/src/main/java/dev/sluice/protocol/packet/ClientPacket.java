package dev.sluice.protocol.packet;

import dev.sluice.protocol.ProtocolException;
import io.netty.buffer.ByteBuf;

/** A packet the client sends: the connection-phase packets and the commands. */
public sealed interface ClientPacket permits SslRequest, HandshakeResponse41, AuthSwitchResponse, ClientCommand {

    /** Writes the payload (no 4-byte packet header) exactly as it is laid out on the wire. */
    void encode(ByteBuf out);

    /**
     * The client's answer to the greeting: an {@link SslRequest} (exactly 32 bytes, the prefix a
     * {@link HandshakeResponse41} would start with) or the {@link HandshakeResponse41} itself.
     */
    static ClientPacket decodeHandshakeReply(ByteBuf payload) {
        if (payload.readableBytes() < SslRequest.LENGTH) {
            throw new ProtocolException("handshake reply: payload length " + payload.readableBytes()
                    + " (expected: >= " + SslRequest.LENGTH + ")");
        }
        return SslRequest.matches(payload) ? SslRequest.decode(payload) : HandshakeResponse41.decode(payload);
    }
}
