package dev.sluice.protocol.frame;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.TooLongFrameException;
import java.util.List;

/**
 * Cuts the byte stream into whole physical packets, header included, as retained slices of the
 * cumulation: a proxy can forward each one as it is, untouched, and still read its header.
 * Packets longer than {@code maxPacket} (at most 0xFFFFFF) are refused with a
 * {@link TooLongFrameException} before they are buffered.
 */
public final class RawPacketDecoder extends ByteToMessageDecoder {

    private int maxPacket;

    public RawPacketDecoder() {
        this(Packet.MAX_PAYLOAD);
    }

    public RawPacketDecoder(int maxPacket) {
        this.maxPacket = maxPacket;
    }

    /** From the next packet on, packets longer than {@code maxPacket} are refused (a login raises the limit). */
    public void maxPacket(int maxPacket) {
        this.maxPacket = maxPacket;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.readableBytes() >= Packet.HEADER_SIZE) {
            int length = in.getUnsignedMediumLE(in.readerIndex());
            if (length > maxPacket) {
                // Not malformed, just over the limit: callers answer it with ER_NET_PACKET_TOO_LARGE.
                in.skipBytes(in.readableBytes());
                throw new TooLongFrameException("packet length: " + length + " (expected: <= " + maxPacket + ")");
            }
            if (in.readableBytes() < Packet.HEADER_SIZE + length) {
                return;
            }
            out.add(in.readRetainedSlice(Packet.HEADER_SIZE + length));
        }
    }

    /** The payload length of a frame from this decoder. */
    public static int payloadLength(ByteBuf frame) {
        return frame.getUnsignedMediumLE(frame.readerIndex());
    }

    public static int sequenceId(ByteBuf frame) {
        return frame.getUnsignedByte(frame.readerIndex() + 3);
    }

    /** Rewrites a frame's sequence id in place. */
    public static void setSequenceId(ByteBuf frame, int sequenceId) {
        frame.setByte(frame.readerIndex() + 3, sequenceId);
    }

    /** A view of the frame's payload (no copy, no retain). */
    public static ByteBuf payload(ByteBuf frame) {
        return frame.slice(frame.readerIndex() + Packet.HEADER_SIZE, payloadLength(frame));
    }

    /**
     * The whole payload of a command split over several packets, which lie back to back in
     * {@code frames} (each 0xFFFFFF-byte packet is followed by the next, the last is shorter): the
     * headers taken out. The caller releases it: a single packet's payload is a retained view of
     * it, a split one a copy.
     */
    public static ByteBuf joinedPayload(ByteBuf frames) {
        int first = payloadLength(frames);
        if (first < Packet.MAX_PAYLOAD) {
            return frames.retainedSlice(frames.readerIndex() + Packet.HEADER_SIZE, first);
        }
        ByteBuf joined = frames.alloc().buffer(frames.readableBytes());
        int at = frames.readerIndex();
        while (true) {
            int length = frames.getUnsignedMediumLE(at);
            if (at + Packet.HEADER_SIZE + length > frames.writerIndex()) {
                joined.release();
                throw new IllegalArgumentException("a split command ends in the middle of a packet");
            }
            joined.writeBytes(frames, at + Packet.HEADER_SIZE, length);
            at += Packet.HEADER_SIZE + length;
            if (length < Packet.MAX_PAYLOAD) {
                return joined;
            }
        }
    }
}
