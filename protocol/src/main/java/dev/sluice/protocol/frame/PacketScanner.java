package dev.sluice.protocol.frame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledHeapByteBuf;

/**
 * Walks packet boundaries in a byte stream that arrives in arbitrary chunks, without consuming
 * or copying the chunks, so a proxy can forward each chunk untouched and still see every packet.
 *
 * <p>For each packet the visitor is called once, when the packet's last byte has arrived, with
 * the payload (or, for packets longer than {@code inspectLimit}, its first {@code inspectLimit}
 * bytes) and the index in the current chunk just past the packet. A packet that lies inside one
 * chunk is shown as a slice of it; only a packet (or prefix) split across chunks is copied, into
 * a small buffer that grows on demand. The payload view is valid during the call only.
 */
public final class PacketScanner {

    /** Called once per physical packet, in stream order. */
    @FunctionalInterface
    public interface Visitor {
        /**
         * @param sequenceId the packet's sequence id
         * @param length     the packet's full payload length
         * @param payload    its first min(length, inspectLimit) bytes; do not retain
         * @param endIndex   index in the chunk just past the packet's last byte
         */
        void onPacket(int sequenceId, int length, ByteBuf payload, int endIndex);
    }

    private static final int INITIAL_PENDING = 64;
    private static final int KEEP_PENDING = 4096;

    private final int inspectLimit;
    private ByteBuf pending = Unpooled.EMPTY_BUFFER;
    private boolean inBody;
    private int length;
    private int sequenceId;
    private int bodyRemaining;

    public PacketScanner(int inspectLimit) {
        if (inspectLimit < 16) {
            throw new IllegalArgumentException("inspectLimit " + inspectLimit + " (expected: >= 16)");
        }
        this.inspectLimit = inspectLimit;
    }

    /** True when the stream ends on a packet boundary. */
    public boolean atBoundary() {
        return !inBody && pending.readableBytes() == 0;
    }

    /** Scans the readable bytes of {@code chunk}; its indexes are left as they were. */
    public void scan(ByteBuf chunk, Visitor visitor) {
        int index = chunk.readerIndex();
        int end = chunk.writerIndex();
        while (index < end) {
            if (!inBody) {
                index = readHeader(chunk, index, end);
                if (!inBody) {
                    continue;
                }
                if (length == 0) {
                    inBody = false;
                    visitor.onPacket(sequenceId, 0, Unpooled.EMPTY_BUFFER, index);
                    continue;
                }
            }
            int available = end - index;
            if (bodyRemaining == length && pending.readableBytes() == 0 && available >= length) {
                // The chunk itself, its indexes narrowed to the payload for the call: no slice
                // object per packet. They are put back before the next packet.
                int readerIndex = chunk.readerIndex();
                int writerIndex = chunk.writerIndex();
                chunk.setIndex(index, index + Math.min(length, inspectLimit));
                index += length;
                inBody = false;
                try {
                    visitor.onPacket(sequenceId, length, chunk, index);
                } finally {
                    chunk.setIndex(readerIndex, writerIndex);
                }
                continue;
            }
            int take = Math.min(available, bodyRemaining);
            int keep = Math.min(take, Math.min(length, inspectLimit) - pending.readableBytes());
            if (keep > 0) {
                pendingBuffer(keep).writeBytes(chunk, index, keep);
            }
            index += take;
            bodyRemaining -= take;
            if (bodyRemaining == 0) {
                inBody = false;
                visitor.onPacket(sequenceId, length, pending, index);
                resetPending();
            }
        }
    }

    private int readHeader(ByteBuf chunk, int index, int end) {
        int have = pending.readableBytes();
        if (have == 0 && end - index >= Packet.HEADER_SIZE) {
            startPacket(chunk.getUnsignedMediumLE(index), chunk.getUnsignedByte(index + 3));
            return index + Packet.HEADER_SIZE;
        }
        int take = Math.min(Packet.HEADER_SIZE - have, end - index);
        pendingBuffer(take).writeBytes(chunk, index, take);
        if (pending.readableBytes() == Packet.HEADER_SIZE) {
            int headerStart = pending.readerIndex();
            startPacket(pending.getUnsignedMediumLE(headerStart), pending.getUnsignedByte(headerStart + 3));
            pending.clear();
        }
        return index + take;
    }

    private void startPacket(int packetLength, int packetSequenceId) {
        inBody = true;
        length = packetLength;
        sequenceId = packetSequenceId;
        bodyRemaining = packetLength;
    }

    private ByteBuf pendingBuffer(int more) {
        if (pending == Unpooled.EMPTY_BUFFER) {
            // Plain heap memory outside the leak-tracked allocators: nothing to release when a
            // channel dies, and the garbage collector takes it.
            pending = new UnpooledHeapByteBuf(UnpooledByteBufAllocator.DEFAULT, Math.max(INITIAL_PENDING, more),
                    Integer.MAX_VALUE);
        }
        pending.ensureWritable(more);
        return pending;
    }

    private void resetPending() {
        if (pending.capacity() > KEEP_PENDING) {
            pending = Unpooled.EMPTY_BUFFER;
        } else {
            pending.clear();
        }
    }
}
