package dev.sluice.proxy.kill;

import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.proxy.sql.ConnectionIdRewriter;
import dev.sluice.proxy.sql.KillStatement;
import dev.sluice.proxy.sql.SqlMode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
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
    /** The command byte after the header. */
    private static final int TEXT_OFFSET = Packet.HEADER_SIZE + 1;

    private ProxyIds() {
    }

    /**
     * A COM_QUERY or COM_STMT_PREPARE frame whose CONNECTION_ID() calls give {@code id}: the same
     * frame when there are none, else a new one with the same sequence id (the old one released).
     */
    public static ByteBuf withConnectionId(ByteBuf frame, long id, Charset charset, SqlMode mode) {
        if (!holds(frame, CONNECTION_ID)) {
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

    /** The KILL of a thread that a COM_QUERY frame holds, or null (see {@link KillStatement#find}). */
    public static KillStatement kill(ByteBuf frame, Charset charset, SqlMode mode) {
        if (!holds(frame, KILL)) {
            return null;
        }
        int length = RawPacketDecoder.payloadLength(frame) - 1;
        byte[] text = ByteBufUtil.getBytes(frame, frame.readerIndex() + TEXT_OFFSET, length, false);
        return KillStatement.find(text, 0, text.length, charset, mode);
    }

    /** Whether the frame is one packet whose text contains {@code word} (lower-case ASCII) in any case. */
    private static boolean holds(ByteBuf frame, byte[] word) {
        int length = RawPacketDecoder.payloadLength(frame);
        if (length >= Packet.MAX_PAYLOAD) {
            return false;
        }
        int from = frame.readerIndex() + TEXT_OFFSET;
        int last = frame.readerIndex() + Packet.HEADER_SIZE + length - word.length;
        for (int i = from; i <= last; i++) {
            if ((frame.getByte(i) | 0x20) == word[0] && matches(frame, i, word)) {
                return true;
            }
        }
        return false;
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
