package dev.sluice.protocol.frame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.DefaultByteBufHolder;

/**
 * One MySQL packet: a sequence id and its payload (without the 4-byte header). Depending on the
 * pipeline it is a physical packet (at most 0xFFFFFF bytes) or a logical one joined by
 * {@link PacketReassembler}. Owns its payload: release it when done.
 */
public final class Packet extends DefaultByteBufHolder {

    /** A physical packet of this length is followed by a continuation packet. */
    public static final int MAX_PAYLOAD = 0xFF_FFFF;
    public static final int HEADER_SIZE = 4;

    private final int sequenceId;

    public Packet(int sequenceId, ByteBuf payload) {
        super(payload);
        this.sequenceId = sequenceId & 0xFF;
    }

    public int sequenceId() {
        return sequenceId;
    }

    public ByteBuf payload() {
        return content();
    }

    public int length() {
        return content().readableBytes();
    }

    @Override
    public Packet replace(ByteBuf content) {
        return new Packet(sequenceId, content);
    }

    @Override
    public Packet retain() {
        super.retain();
        return this;
    }

    @Override
    public Packet touch(Object hint) {
        content().touch(hint);
        return this;
    }

    @Override
    public String toString() {
        return "Packet(seq=" + sequenceId + ", length=" + (refCnt() > 0 ? length() : -1) + ")";
    }
}
