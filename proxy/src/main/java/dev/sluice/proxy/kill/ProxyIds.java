package dev.sluice.proxy.kill;

import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.proxy.sql.ConnectionIdRewriter;
import dev.sluice.proxy.sql.KillStatement;
import dev.sluice.proxy.sql.SqlMode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.util.ByteProcessor;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * The statements whose meaning depends on which thread id the client was given, as a session that
 * the proxy greeted with its own id must treat them: {@code CONNECTION_ID()} (see
 * {@link ConnectionIdRewriter}) and KILL. Only a statement containing the bytes
 * {@code CONNECTION_ID} or {@code KILL} (in any case) is lexed at all, and only one packet long
 * (under 16 MiB).
 */
public final class ProxyIds {

    private static final byte[] CONNECTION_ID = "connection_id".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KILL = "kill".getBytes(StandardCharsets.US_ASCII);
    public static final int CONNECTION_ID_WORD = 1;
    public static final int KILL_WORD = 2;
    private static final int BOTH_WORDS = CONNECTION_ID_WORD | KILL_WORD;
    /** Stops at a byte that may start either word. */
    private static final ByteProcessor NOT_A_FIRST_LETTER = b -> {
        int lower = b | 0x20;
        return lower != 'c' && lower != 'k';
    };
    /** The command byte after the header. */
    private static final int TEXT_OFFSET = Packet.HEADER_SIZE + 1;

    private ProxyIds() {
    }

    /**
     * A COM_QUERY or COM_STMT_PREPARE frame whose CONNECTION_ID() calls give {@code id}: the same
     * frame when there are none, else a new one with the same sequence id (the old one released).
     * {@code words} is what {@link #words} found in the frame (the caller's one pass over it).
     */
    public static ByteBuf withConnectionId(ByteBuf frame, int words, long id, Charset charset, SqlMode mode) {
        if ((words & CONNECTION_ID_WORD) == 0) {
            return frame;
        }
        int length = RawPacketDecoder.payloadLength(frame) - 1;
        byte[] text = ByteBufUtil.getBytes(frame, frame.readerIndex() + TEXT_OFFSET, length, false);
        byte[] rewritten = ConnectionIdRewriter.rewrite(text, 0, text.length, charset, mode, id);
        if (rewritten == null || 1 + rewritten.length >= Packet.MAX_PAYLOAD) {
            return frame;
        }
        int command = frame.getUnsignedByte(frame.readerIndex() + Packet.HEADER_SIZE);
        ByteBuf out = frame.alloc().buffer(TEXT_OFFSET + rewritten.length);
        out.writeMediumLE(1 + rewritten.length).writeByte(RawPacketDecoder.sequenceId(frame))
                .writeByte(command).writeBytes(rewritten);
        frame.release();
        return out;
    }

    /**
     * The KILL of a thread that a COM_QUERY frame holds, or null (see {@link KillStatement#find}).
     * {@code words} is what {@link #words} found (in this frame, or in the one it was rewritten
     * from: the CONNECTION_ID() rewrite adds no KILL).
     */
    public static KillStatement kill(ByteBuf frame, int words, Charset charset, SqlMode mode) {
        if ((words & KILL_WORD) == 0) {
            return null;
        }
        int length = RawPacketDecoder.payloadLength(frame) - 1;
        byte[] text = ByteBufUtil.getBytes(frame, frame.readerIndex() + TEXT_OFFSET, length, false);
        return KillStatement.find(text, 0, text.length, charset, mode);
    }

    /**
     * Which of CONNECTION_ID and KILL (in any case) the text of a one-packet frame contains, as
     * {@link #CONNECTION_ID_WORD} and {@link #KILL_WORD} bits: one pass over every statement, so
     * that only the few holding either are read further.
     */
    public static int words(ByteBuf frame) {
        int length = RawPacketDecoder.payloadLength(frame);
        if (length >= Packet.MAX_PAYLOAD) {
            return 0;
        }
        int end = frame.readerIndex() + Packet.HEADER_SIZE + length;
        int found = 0;
        for (int i = frame.readerIndex() + TEXT_OFFSET; i < end && found != BOTH_WORDS; ) {
            int at = frame.forEachByte(i, end - i, NOT_A_FIRST_LETTER);
            if (at < 0) {
                break;
            }
            if ((frame.getByte(at) | 0x20) == 'c') {
                found |= holdsAt(frame, at, end, CONNECTION_ID) ? CONNECTION_ID_WORD : 0;
            } else {
                found |= holdsAt(frame, at, end, KILL) ? KILL_WORD : 0;
            }
            i = at + 1;
        }
        return found;
    }

    private static boolean holdsAt(ByteBuf frame, int index, int end, byte[] word) {
        return index + word.length <= end && matches(frame, index, word);
    }

    private static boolean matches(ByteBuf frame, int index, byte[] word) {
        for (int k = 1; k < word.length; k++) {
            byte b = frame.getByte(index + k);
            byte expected = word[k];
            if (expected >= 'a' && expected <= 'z' ? (b | 0x20) != expected : b != expected) {
                return false;
            }
        }
        return true;
    }
}
