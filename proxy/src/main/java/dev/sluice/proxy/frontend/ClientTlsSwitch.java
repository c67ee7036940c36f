package dev.sluice.proxy.frontend;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.packet.SslRequest;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslContext;
import java.util.List;

/**
 * Sits at the head of a client pipeline until the client's first packet. A client that wants TLS
 * sends a 32-byte SSLRequest and starts its TLS handshake right away, often in the same TCP
 * segment, so the switch must happen exactly at the SSLRequest's last byte: the SSLRequest goes on
 * as plain bytes, and this handler is replaced by the TLS handler, which then receives every byte
 * after it (Netty hands a replaced decoder's leftover bytes, and anything it decoded but had not yet
 * fired, to its replacement).
 */
public final class ClientTlsSwitch extends ByteToMessageDecoder {

    private static final int SSL_REQUEST_FRAME = Packet.HEADER_SIZE + SslRequest.LENGTH;

    private final SslContext tls;

    public ClientTlsSwitch(SslContext tls) {
        this.tls = tls;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() < Packet.HEADER_SIZE + 4) {
            return;
        }
        int start = in.readerIndex();
        int length = in.getUnsignedMediumLE(start);
        long capabilities = in.getUnsignedIntLE(start + Packet.HEADER_SIZE);
        boolean sslRequest = length == SslRequest.LENGTH && Capabilities.has(capabilities, Capabilities.CLIENT_SSL);
        if (!sslRequest) {
            ctx.pipeline().remove(this);
            return;
        }
        if (in.readableBytes() < SSL_REQUEST_FRAME) {
            return;
        }
        // Fired before the replacement, not added to out: once the TLS handler takes this handler's
        // place, everything this decoder still passes on (its out list, then its leftover bytes)
        // goes into the TLS handler, and the SSLRequest is plain text.
        ctx.fireChannelRead(in.readRetainedSlice(SSL_REQUEST_FRAME));
        ctx.pipeline().replace(this, "tls", tls.newHandler(ctx.alloc()));
    }
}
