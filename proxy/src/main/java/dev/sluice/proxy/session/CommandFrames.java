package dev.sluice.proxy.session;

import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.proxy.command.ClientCommand;
import dev.sluice.proxy.command.Replies;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.function.Consumer;

/**
 * Cuts a session's client packets into commands and checks them: an empty packet and a command
 * longer than max_packet_size end the session (ERR 1047, 1153). A command of 16 MiB or more comes
 * in several packets: a session that relays it passes them on as they come ({@link #relay}), one
 * that routes it holds them until the command is whole ({@link #takeWhole}), within the memory all
 * sessions share for that.
 */
final class CommandFrames {

    /** How the session ends when a command is refused: an ERR with this code and message, then closing. */
    interface Refusal {
        void end(int code, String message);
    }

    private final PendingCommands queue;
    private final long maxPacketSize;
    private final Refusal refusal;
    /** A command of 16 MiB or more is being relayed packet by packet, {@link #commandSize} bytes so far. */
    private boolean streaming;
    private long commandSize;

    CommandFrames(PendingCommands queue, long maxPacketSize, Refusal refusal) {
        this.queue = queue;
        this.maxPacketSize = maxPacketSize;
        this.refusal = refusal;
    }

    /** Part of a command went out and the rest did not: the connection it went to cannot serve another. */
    boolean partlySent() {
        return streaming;
    }

    /**
     * One packet of a session that relays large commands: a continuation goes on at once, data a
     * response waits for goes to {@code path}, a command's first packet to {@code command}.
     */
    void relay(ByteBuf frame, StatementPath path, Consumer<ByteBuf> command) {
        int length = RawPacketDecoder.payloadLength(frame);
        boolean continues = length == Packet.MAX_PAYLOAD;
        if (streaming) {
            streaming = continues;
            commandSize += length;
            if (commandSize > maxPacketSize) {
                frame.release();
                tooLarge();
            } else {
                path.continuation(frame);
            }
            return;
        }
        streaming = continues;
        if (path.takesClientData(frame)) {
            return;
        }
        commandSize = length;
        if (length == 0) {
            frame.release();
            refusal.end(Replies.UNKNOWN_COMMAND, ClientCommand.EMPTY);
        } else if (commandSize > maxPacketSize) {
            frame.release();
            tooLarge();
        } else {
            command.accept(frame);
        }
    }

    /**
     * The first queued command, whole; null when its packets are still coming or it was refused
     * (the session then ends).
     */
    ByteBuf takeWhole(ByteBufAllocator alloc) {
        long length = queue.firstLength(maxPacketSize);
        if (length > maxPacketSize) {
            refusal.end(Replies.PACKET_TOO_LARGE, ClientCommand.tooLarge(maxPacketSize));
            return null;
        }
        String overBudget = length < 0 || length >= Packet.MAX_PAYLOAD ? queue.hold(Math.abs(length)) : null;
        if (overBudget != null) {
            refusal.end(Replies.PACKET_TOO_LARGE, overBudget);
            return null;
        }
        if (length < 0) {
            // The rest of a command of 16 MiB or more is still to come.
            return null;
        }
        ByteBuf whole = queue.takeFirst(alloc);
        if (length == 0) {
            whole.release();
            refusal.end(Replies.UNKNOWN_COMMAND, ClientCommand.EMPTY);
            return null;
        }
        return whole;
    }

    /** A command past max_packet_size (the decoder refused its header, or its packets added up). */
    void tooLarge() {
        // Part of the command may already have reached the backend.
        streaming = true;
        refusal.end(Replies.PACKET_TOO_LARGE, ClientCommand.tooLarge(maxPacketSize));
    }
}
