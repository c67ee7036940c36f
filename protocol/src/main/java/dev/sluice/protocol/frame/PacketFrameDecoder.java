package dev.sluice.protocol.frame;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Cuts the byte stream into physical packets: 3-byte little-endian length, 1-byte sequence id,
 * payload. Payloads are retained slices of the cumulation, so nothing is copied unless a packet
 * arrives in pieces. Continuation packets of a split payload come out as packets of their own;
 * put a {@link PacketReassembler} behind this decoder to join them.
 */
public final class PacketFrameDecoder extends ByteToMessageDecoder {

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.readableBytes() >= Packet.HEADER_SIZE) {
            int start = in.readerIndex();
            int length = in.getUnsignedMediumLE(start);
            if (in.readableBytes() < Packet.HEADER_SIZE + length) {
                return;
            }
            int sequenceId = in.getUnsignedByte(start + 3);
            in.skipBytes(Packet.HEADER_SIZE);
            out.add(new Packet(sequenceId, in.readRetainedSlice(length)));
        }
    }
}
