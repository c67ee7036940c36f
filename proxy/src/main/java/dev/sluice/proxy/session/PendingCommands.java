package dev.sluice.proxy.session;

import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.frame.RawPacketDecoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;

/**
 * A session's client packets not yet started, in order. A command of 16 MiB or more comes as
 * several packets: a session that routes it holds it until it is whole ({@link #takeFirst}), one
 * that relays it takes packet by packet ({@link #takePacket}).
 */
final class PendingCommands {

    private final ArrayDeque<ByteBuf> packets = new ArrayDeque<>();

    boolean isEmpty() {
        return packets.isEmpty();
    }

    void add(ByteBuf packet) {
        packets.addLast(packet);
    }

    /**
     * The payload length of the first command, over all its packets; or, while its packets are
     * still coming, minus what has come so far, unless that is over {@code limit} already.
     */
    long firstLength(long limit) {
        long total = 0;
        for (ByteBuf packet : packets) {
            int length = RawPacketDecoder.payloadLength(packet);
            total += length;
            if (length < Packet.MAX_PAYLOAD) {
                return total;
            }
        }
        return total > limit ? total : -total;
    }

    /**
     * The first command, which {@link #firstLength} said is whole, as one buffer: its packets back
     * to back, untouched, so the backend gets the bytes the client sent.
     */
    ByteBuf takeFirst(ByteBufAllocator alloc) {
        ByteBuf first = packets.pollFirst();
        if (RawPacketDecoder.payloadLength(first) < Packet.MAX_PAYLOAD) {
            return first;
        }
        CompositeByteBuf whole = alloc.compositeBuffer(Integer.MAX_VALUE).addComponent(true, first);
        ByteBuf next;
        do {
            next = packets.pollFirst();
            whole.addComponent(true, next);
        } while (RawPacketDecoder.payloadLength(next) == Packet.MAX_PAYLOAD);
        return whole;
    }

    /** The first packet alone. */
    ByteBuf takePacket() {
        return packets.pollFirst();
    }

    void releaseAll() {
        packets.forEach(ReferenceCountUtil::release);
        packets.clear();
    }
}
