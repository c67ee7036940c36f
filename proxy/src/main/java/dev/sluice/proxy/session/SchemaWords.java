package dev.sluice.proxy.session;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.frame.Packet;
import io.netty.buffer.ByteBuf;

/**
 * Whether a relayed command may change the connection's default schema, which session mode does
 * not follow: COM_INIT_DB, and SQL with the word USE (the only statement that selects a schema;
 * stored programs and prepared statements may not hold it, EXECUTE IMMEDIATE carries it as text)
 * or DROP (dropping the selected schema unselects it). A word inside a string, a comment or a
 * quoted name counts too: a false alarm only costs a COM_INIT_DB when the connection is given
 * back (or the connection, when it had no schema). SQL longer than {@value #SCANNED_BYTES} bytes
 * counts without a look: the scan runs on the event loop, and a megabyte of INSERT would hold it
 * for a millisecond to save one COM_INIT_DB.
 */
final class SchemaWords {

    static final int SCANNED_BYTES = 16 * 1024;

    private SchemaWords() {
    }

    /** {@code frame}: the command's first frame, header included. */
    static boolean mayChangeSchema(int command, ByteBuf frame) {
        if (command == Commands.COM_INIT_DB) {
            return true;
        }
        if (command != Commands.COM_QUERY) {
            return false;
        }
        int start = frame.readerIndex() + Packet.HEADER_SIZE + 1;
        int end = frame.writerIndex();
        if (end - start > SCANNED_BYTES) {
            return true;
        }
        for (int i = start; i < end; i++) {
            int c = frame.getByte(i) | 0x20;
            if ((c == 'u' || c == 'd') && (i == start || !wordByte(frame.getByte(i - 1)))
                    && (word(frame, i, end, "use") || word(frame, i, end, "drop"))) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code word} (lower case) stands alone at {@code at}, in any letter case. */
    private static boolean word(ByteBuf frame, int at, int end, String word) {
        int after = at + word.length();
        if (after > end) {
            return false;
        }
        for (int k = 0; k < word.length(); k++) {
            if ((frame.getByte(at + k) | 0x20) != word.charAt(k)) {
                return false;
            }
        }
        return after == end || !wordByte(frame.getByte(after));
    }

    /** Letters, digits, _ and $ and any byte of a multi-byte character continue an unquoted name. */
    private static boolean wordByte(byte b) {
        return b < 0 || b == '_' || b == '$' || (b >= '0' && b <= '9') || ((b | 0x20) >= 'a' && (b | 0x20) <= 'z');
    }
}
