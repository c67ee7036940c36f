package dev.sluice.protocol.frame;

import dev.sluice.protocol.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.util.List;

/**
 * Joins a payload split over several physical packets. A packet of exactly 0xFFFFFF bytes means
 * "more follows"; the last piece is shorter, and is empty when the total is an exact multiple of
 * 0xFFFFFF. Sequence ids must rise by one (mod 256) across the pieces; the joined packet carries
 * the first piece's id. Payloads above {@code maxPayload} are refused before they are buffered.
 */
public final class PacketReassembler extends MessageToMessageDecoder<Packet> {

    private final long maxPayload;
    private CompositeByteBuf joined;
    private int firstSequenceId;
    private int lastSequenceId;

    public PacketReassembler(long maxPayload) {
        super(Packet.class);
        this.maxPayload = maxPayload;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, Packet packet, List<Object> out) {
        int length = packet.length();
        if (joined == null) {
            if (length < Packet.MAX_PAYLOAD) {
                out.add(packet.retain());
                return;
            }
            joined = ctx.alloc().compositeBuffer(Integer.MAX_VALUE);
            firstSequenceId = packet.sequenceId();
        } else if (packet.sequenceId() != ((lastSequenceId + 1) & 0xFF)) {
            int expected = (lastSequenceId + 1) & 0xFF;
            discard();
            throw new ProtocolException("sequence id " + packet.sequenceId() + " (expected: " + expected
                    + ") in continuation of a split packet");
        }
        lastSequenceId = packet.sequenceId();
        if ((long) joined.readableBytes() + length > maxPayload) {
            long size = (long) joined.readableBytes() + length;
            discard();
            throw new ProtocolException("payload length: more than " + size + " bytes (expected: <= "
                    + maxPayload + ")");
        }
        joined.addComponent(true, packet.payload().retain());
        if (length < Packet.MAX_PAYLOAD) {
            out.add(new Packet(firstSequenceId, joined));
            joined = null;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        discard();
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        discard();
    }

    private void discard() {
        if (joined != null) {
            joined.release();
            joined = null;
        }
    }
}
