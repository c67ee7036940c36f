package dev.sluice.proxy.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.frame.Packet;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Commands as the client's packets make them: one packet, or 16 MiB ones until a shorter one ends it. */
class PendingCommandsTest {

    private final PendingCommands pending = new PendingCommands(dev.sluice.proxy.memory.MemoryBudget.unlimited());

    /** Only the header counts here: a packet that says it carries {@code length} bytes, and its first one. */
    private static ByteBuf packet(int length, int sequenceId, int firstByte) {
        ByteBuf packet = Unpooled.buffer(5);
        packet.writeMediumLE(length).writeByte(sequenceId).writeByte(firstByte);
        return packet;
    }

    @AfterEach
    void release() {
        pending.releaseAll();
    }

    @Test
    void aCommandInOnePacketIsWholeAtOnce() {
        ByteBuf query = packet(12, 0, 3);
        pending.add(query);
        pending.add(packet(1, 0, 14));
        assertThat(pending.firstLength(100)).isEqualTo(12);
        ByteBuf taken = pending.takeFirst(ByteBufAllocator.DEFAULT);
        assertThat(taken).isSameAs(query);
        taken.release();
        assertThat(pending.firstLength(100)).as("the next command").isEqualTo(1);
    }

    @Test
    void aLongCommandIsWholeWhenAShorterPacketEndsIt() {
        pending.add(packet(Packet.MAX_PAYLOAD, 0, 3));
        pending.add(packet(Packet.MAX_PAYLOAD, 1, 'x'));
        long limit = 1L << 30;
        assertThat(pending.firstLength(limit)).as("still coming").isEqualTo(-2L * Packet.MAX_PAYLOAD);
        pending.add(packet(0, 2, 0));
        assertThat(pending.firstLength(limit)).isEqualTo(2L * Packet.MAX_PAYLOAD);
        ByteBuf whole = pending.takeFirst(ByteBufAllocator.DEFAULT);
        try {
            assertThat(whole.readableBytes()).as("three packets back to back").isEqualTo(15);
            assertThat(whole.getByte(8)).as("the second packet's sequence id").isEqualTo((byte) 1);
            assertThat(pending.isEmpty()).isTrue();
        } finally {
            whole.release();
        }
    }

    @Test
    void aCommandOverTheLimitSaysSoBeforeItIsWhole() {
        pending.add(packet(Packet.MAX_PAYLOAD, 0, 3));
        pending.add(packet(Packet.MAX_PAYLOAD, 1, 'x'));
        assertThat(pending.firstLength(Packet.MAX_PAYLOAD)).isEqualTo(2L * Packet.MAX_PAYLOAD);
    }
}
