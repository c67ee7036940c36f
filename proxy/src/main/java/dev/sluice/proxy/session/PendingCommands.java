package dev.sluice.proxy.session;

import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.proxy.memory.MemoryBudget;
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

    /** Room for two at first (it grows): the default 16 slots cost every session 56 bytes. */
    private final ArrayDeque<ByteBuf> packets = new ArrayDeque<>(2);
    private final MemoryBudget budget;
    /** Bytes of a command of 16 MiB or more held here, counted in {@link #budget}. */
    private long held;

    /** {@code budget}: what a command of 16 MiB or more takes its bytes from while it is held whole. */
    PendingCommands(MemoryBudget budget) {
        this.budget = budget;
    }

    /**
     * A command of 16 MiB or more is held until it is whole, and then until its response ends:
     * {@code bytes} of it now, counted against the memory all sessions share for that. Null when
     * that fits, else the ERR message saying it does not.
     */
    String hold(long bytes) {
        if (bytes > held) {
            if (!budget.reserve(bytes - held)) {
                return "Sluice: large commands and capture hold " + (budget.held() >> 20) + " MiB, and this command's "
                        + (bytes >> 20) + " MiB would pass limits.buffered_memory (" + (budget.limit() >> 20) + " MiB)";
            }
            held = bytes;
        }
        return null;
    }

    /** The held command's response ended (or the session did): its bytes go back to the budget. */
    void releaseHeld() {
        if (held > 0) {
            budget.release(held);
            held = 0;
        }
    }

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
