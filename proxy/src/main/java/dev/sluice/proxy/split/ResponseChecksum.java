package dev.sluice.proxy.split;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.Wire;
import dev.sluice.protocol.frame.Packet;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * A digest of what a client saw of one response, for {@code transaction_replay}: the same
 * statement run again must answer the same. For a result set its column count, column
 * definitions and rows, byte for byte; for an OK its affected rows and insert id; for an ERR its
 * code. What differs between two runs of the same statement without telling the client anything
 * new is left out: sequence ids, status flags, warning counts, an OK's info text and session
 * state, EOF packets. Packets may arrive cut anywhere (a 16 MiB row across reads): the few
 * leading bytes a packet is told apart by are gathered first, the rest is digested as it comes.
 * Layouts: https://mariadb.com/kb/en/result-set-packets/ and /ok_packet/.
 */
final class ResponseChecksum {

    /** What an OK, EOF, ERR or column count packet says within its first bytes (1 + 9 + 9 + 2). */
    private static final int HEAD = 24;
    private static final int MAX_PAYLOAD = 0xFFFFFF;

    private enum State { FIRST, COLUMNS, COLUMNS_EOF, ROWS, DONE }

    /** What the rest of a packet, after its head, is: digested or skipped. */
    private enum Rest { DIGEST, SKIP }

    private final boolean deprecateEof;
    private final MessageDigest digest;
    private final byte[] header = new byte[Packet.HEADER_SIZE];
    private int headerFilled;
    private final byte[] head = new byte[HEAD];
    private int headFilled;
    private int payloadLength;
    private int payloadLeft;
    private Rest rest;
    /** The packet continues the previous one's payload (which was 16 MiB - 1 long). */
    private boolean continuation;
    private boolean nextIsContinuation;
    private State state = State.FIRST;
    private long columnsLeft;
    private int oks;
    private boolean resultSet;
    private long insertId;
    private boolean localInfile;

    ResponseChecksum(long capabilities) {
        this.deprecateEof = Capabilities.has(capabilities, Capabilities.CLIENT_DEPRECATE_EOF);
        try {
            this.digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** Response bytes as they reached the client; not consumed. */
    void update(ByteBuf bytes) {
        int index = bytes.readerIndex();
        int end = bytes.writerIndex();
        while (index < end) {
            if (headerFilled < Packet.HEADER_SIZE) {
                int n = Math.min(Packet.HEADER_SIZE - headerFilled, end - index);
                bytes.getBytes(index, header, headerFilled, n);
                headerFilled += n;
                index += n;
                if (headerFilled == Packet.HEADER_SIZE) {
                    startPacket();
                }
                continue;
            }
            int headWanted = Math.min(payloadLength, HEAD);
            if (headFilled < headWanted) {
                int n = Math.min(headWanted - headFilled, end - index);
                bytes.getBytes(index, head, headFilled, n);
                headFilled += n;
                payloadLeft -= n;
                index += n;
                if (headFilled == headWanted) {
                    rest = readHead();
                }
            } else {
                int n = Math.min(payloadLeft, end - index);
                if (rest == Rest.DIGEST) {
                    digest.update(bytes.nioBuffer(index, n));
                }
                payloadLeft -= n;
                index += n;
            }
            if (payloadLeft == 0 && headFilled == headWanted) {
                headerFilled = 0;
            }
        }
    }

    private void startPacket() {
        payloadLength = (header[0] & 0xFF) | (header[1] & 0xFF) << 8 | (header[2] & 0xFF) << 16;
        payloadLeft = payloadLength;
        headFilled = 0;
        continuation = nextIsContinuation;
        nextIsContinuation = payloadLength == MAX_PAYLOAD;
        if (payloadLength == 0) {
            rest = readHead();
            headerFilled = 0;
        }
    }

    /** Tells the packet by its first bytes: what it adds to the digest, and whether its rest is digested. */
    private Rest readHead() {
        if (continuation) {
            return digestAll('+');
        }
        int first = headFilled == 0 ? -1 : head[0] & 0xFF;
        switch (state) {
            case FIRST -> {
                if (first == 0x00) {
                    return ok();
                }
                if (first == 0xFF) {
                    return error();
                }
                if (first == 0xFB) {
                    localInfile = true;
                    state = State.DONE;
                    return Rest.SKIP;
                }
                ByteBuf view = Unpooled.wrappedBuffer(head, 0, headFilled);
                columnsLeft = Wire.readIntLenenc(view);
                resultSet = true;
                tag('C');
                digestLong(columnsLeft);
                state = columnsLeft == 0 ? State.ROWS : State.COLUMNS;
                return Rest.SKIP;
            }
            case COLUMNS -> {
                if (--columnsLeft == 0) {
                    state = deprecateEof ? State.ROWS : State.COLUMNS_EOF;
                }
                return digestAll('D');
            }
            case COLUMNS_EOF -> {
                state = State.ROWS;
                return Rest.SKIP;
            }
            case ROWS -> {
                if (first == 0xFF) {
                    return error();
                }
                boolean terminator = first == 0xFE && (deprecateEof ? payloadLength < MAX_PAYLOAD : payloadLength < 9);
                if (!terminator) {
                    return digestAll('R');
                }
                tag('T');
                ByteBuf view = Unpooled.wrappedBuffer(head, 0, headFilled);
                view.skipBytes(1);
                int status;
                if (deprecateEof) {
                    Wire.readIntLenenc(view);
                    Wire.readIntLenenc(view);
                    status = view.readUnsignedShortLE();
                } else {
                    view.skipBytes(2);
                    status = view.readUnsignedShortLE();
                }
                state = (status & ServerStatus.MORE_RESULTS_EXISTS) != 0 ? State.FIRST : State.DONE;
                return Rest.SKIP;
            }
            default -> {
                return Rest.SKIP;
            }
        }
    }

    private Rest ok() {
        ByteBuf view = Unpooled.wrappedBuffer(head, 0, headFilled);
        view.skipBytes(1);
        long affected = Wire.readIntLenenc(view);
        long id = Wire.readIntLenenc(view);
        int status = view.readUnsignedShortLE();
        tag('O');
        digestLong(affected);
        digestLong(id);
        oks++;
        insertId = oks == 1 ? id : 0;
        state = (status & ServerStatus.MORE_RESULTS_EXISTS) != 0 ? State.FIRST : State.DONE;
        return Rest.SKIP;
    }

    private Rest error() {
        tag('E');
        digest.update(head, 1, 2);
        state = State.DONE;
        return Rest.SKIP;
    }

    /** The whole packet goes into the digest, its length first (so two rows never read as one). */
    private Rest digestAll(char kind) {
        tag(kind);
        digestLong(payloadLength);
        digest.update(head, 0, headFilled);
        return Rest.DIGEST;
    }

    private void tag(char kind) {
        digest.update((byte) kind);
    }

    private void digestLong(long value) {
        for (int shift = 0; shift < 64; shift += 8) {
            digest.update((byte) (value >>> shift));
        }
    }

    /** The response asked for a LOCAL INFILE: the client sent a file the proxy did not keep. */
    boolean localInfile() {
        return localInfile;
    }

    /** The whole response was read: its last packet ended the last result. */
    boolean complete() {
        return state == State.DONE && headerFilled == 0;
    }

    /**
     * The insert id of the response's OK when it is a single statement's (one OK, no result set),
     * else 0: what a replay gives {@code SET insert_id} so the same ids are generated again.
     */
    long insertId() {
        return oks == 1 && !resultSet ? insertId : 0;
    }

    /** The digest; the checksum is done with after this. */
    byte[] finish() {
        return digest.digest();
    }

    static boolean same(byte[] a, byte[] b) {
        return Arrays.equals(a, b);
    }
}
