package dev.sluice.protocol.frame;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;

/**
 * Writes packets with their 4-byte headers, splitting payloads of 0xFFFFFF bytes or more into
 * pieces with consecutive sequence ids and an empty trailing piece when the length is an exact
 * multiple of 0xFFFFFF. The payload is passed on as slices, never copied.
 */
@ChannelHandler.Sharable
public final class PacketEncoder extends MessageToMessageEncoder<Packet> {

    public static final PacketEncoder INSTANCE = new PacketEncoder();

    private PacketEncoder() {
        super(Packet.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Packet packet, List<Object> out) {
        ByteBuf payload = packet.payload();
        int sequenceId = packet.sequenceId();
        while (true) {
            int length = Math.min(payload.readableBytes(), Packet.MAX_PAYLOAD);
            ByteBuf header = ctx.alloc().buffer(Packet.HEADER_SIZE);
            header.writeMediumLE(length).writeByte(sequenceId);
            out.add(header);
            if (length > 0) {
                out.add(payload.readRetainedSlice(length));
            }
            sequenceId = (sequenceId + 1) & 0xFF;
            if (length < Packet.MAX_PAYLOAD) {
                return;
            }
        }
    }

    /** Encodes into one new buffer (header + payload), for callers outside a pipeline. */
    public static ByteBuf encodeToBuffer(io.netty.buffer.ByteBufAllocator alloc, int sequenceId, ByteBuf payload) {
        int total = payload.readableBytes();
        int pieces = total / Packet.MAX_PAYLOAD + 1;
        ByteBuf out = alloc.buffer(total + pieces * Packet.HEADER_SIZE);
        int index = payload.readerIndex();
        int remaining = total;
        int seq = sequenceId;
        while (true) {
            int length = Math.min(remaining, Packet.MAX_PAYLOAD);
            out.writeMediumLE(length).writeByte(seq);
            out.writeBytes(payload, index, length);
            index += length;
            remaining -= length;
            seq = (seq + 1) & 0xFF;
            if (length < Packet.MAX_PAYLOAD) {
                return out;
            }
        }
    }
}
