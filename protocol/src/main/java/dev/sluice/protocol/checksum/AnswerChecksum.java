package dev.sluice.protocol.checksum;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.Wire;
import dev.sluice.protocol.frame.Packet;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Reduces a server's answer to a COM_QUERY (text protocol) to an {@link Answer} while its packets
 * go by, without keeping them: the error code, each result's column names and types, its rows as
 * {@link RowChecksum}s, affected rows and warning counts. Two connections that negotiated
 * different capabilities (CLIENT_DEPRECATE_EOF, MariaDB's metadata cache) give the same answer for
 * the same rows.
 *
 * <p>A row is hashed as its packet's bytes (each value as the server wrote it: a length and text,
 * or 0xFB for NULL), the first {@link #HASHED_BYTES} of them and its length: a proxy that relays
 * rows sees at least that much of each packet without copying. Two rows that differ only past
 * their first KiB, with the same length, are taken for equal.
 *
 * <p>Layouts: https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_query_response.html.
 */
public final class AnswerChecksum {

    /** The bytes of each row packet read; the rest counts by its length only. */
    public static final int HASHED_BYTES = 1024;
    private static final int MARIADB_PROGRESS_CODE = 0xFFFF;
    private static final long MAX_COLUMNS = 65_535;

    private enum State { FIRST, COLUMNS, COLUMNS_EOF, ROWS, DONE, SKIPPED }

    private boolean deprecateEof;
    private boolean metadataFollowsByte;
    private boolean extendedMetadata;

    private State state = State.FIRST;
    private long columnsLeft;
    private boolean continuation;
    private long rowHash;
    private RowChecksum rows = new RowChecksum();
    private long columns = RowChecksum.SEED;
    private boolean columnsKnown = true;
    private int results;
    private long affected;
    private int warnings;
    private int errorCode;
    private String error;
    private String uncomparable;

    /**
     * An answer begins, over a connection that negotiated {@code capabilities}; what was read
     * before is forgotten (a statement sent again elsewhere starts over).
     */
    public void begin(long capabilities) {
        deprecateEof = Capabilities.has(capabilities, Capabilities.CLIENT_DEPRECATE_EOF);
        metadataFollowsByte = Capabilities.has(capabilities, Capabilities.MARIADB_CLIENT_CACHE_METADATA);
        extendedMetadata = Capabilities.has(capabilities, Capabilities.MARIADB_CLIENT_EXTENDED_METADATA);
        state = State.FIRST;
        continuation = false;
        rows = new RowChecksum();
        columns = RowChecksum.SEED;
        columnsKnown = true;
        results = 0;
        affected = 0;
        warnings = 0;
        errorCode = 0;
        error = null;
        uncomparable = null;
    }

    /**
     * One physical packet of the answer, {@code length} bytes long, of which at least the first
     * min(length, {@link #HASHED_BYTES}) are readable in {@code payload} (its indexes are left as
     * they were).
     *
     * @return true when the answer is complete
     */
    public boolean accept(int length, ByteBuf payload) {
        if (state == State.DONE || state == State.SKIPPED) {
            return state == State.DONE;
        }
        boolean continued = continuation;
        continuation = length == Packet.MAX_PAYLOAD;
        if (continued) {
            rowHash = hashPacket(rowHash, length, payload);
            endRowUnlessContinued();
            return false;
        }
        if (length == 0) {
            return skip("an empty packet");
        }
        int start = payload.readerIndex();
        try {
            read(payload, payload.getUnsignedByte(start), length);
        } catch (IndexOutOfBoundsException e) {
            skip("a packet shorter than its fields");
        } finally {
            payload.readerIndex(start);
        }
        return state == State.DONE;
    }

    public boolean done() {
        return state == State.DONE;
    }

    /** What the answer was; call once {@link #accept} said it is complete. */
    public Answer answer() {
        return new Answer(errorCode, error, results, rows.rows(), affected, warnings, columnsKnown,
                columnsKnown ? columns : 0, rows.ordered(), rows.unordered(), uncomparable);
    }

    private void read(ByteBuf p, int header, int length) {
        switch (state) {
            case FIRST -> first(p, header, length);
            case COLUMNS -> {
                if (header == 0xFF) {
                    err(p);
                    return;
                }
                column(p, length);
                if (--columnsLeft == 0) {
                    state = deprecateEof ? State.ROWS : State.COLUMNS_EOF;
                }
            }
            case COLUMNS_EOF -> {
                if (header == 0xFF) {
                    err(p);
                } else {
                    state = State.ROWS;
                }
            }
            case ROWS -> {
                if (header == 0xFF) {
                    err(p);
                } else if (header == 0xFE && length < Packet.MAX_PAYLOAD && (deprecateEof || length < 9)) {
                    terminator(p, length);
                } else {
                    rowHash = hashPacket(RowChecksum.SEED, length, p);
                    endRowUnlessContinued();
                }
            }
            default -> throw new IllegalStateException(state.name());
        }
    }

    private void first(ByteBuf p, int header, int length) {
        switch (header) {
            case 0x00 -> {
                results++;
                okFields(p);
            }
            case 0xFF -> err(p);
            case 0xFE -> terminator(p, length);
            case 0xFB -> skip("LOAD DATA LOCAL INFILE");
            default -> {
                long count = Wire.readIntLenenc(p);
                if (count <= 0 || count > MAX_COLUMNS) {
                    skip("a column count of " + count);
                    return;
                }
                boolean definitionsFollow = !metadataFollowsByte || Wire.readInt1(p) != 0;
                results++;
                columns = RowChecksum.fnv(columns, (int) count);
                columnsLeft = definitionsFollow ? count : 0;
                if (!definitionsFollow) {
                    columnsKnown = false;
                }
                state = columnsLeft > 0 ? State.COLUMNS : deprecateEof ? State.ROWS : State.COLUMNS_EOF;
            }
        }
    }

    /** A column definition: its name and type count, not the table it came from or its display length. */
    private void column(ByteBuf p, int length) {
        if (length > HASHED_BYTES) {
            columnsKnown = false;
            return;
        }
        for (int i = 0; i < 4; i++) {
            Wire.skipStringLenenc(p);
        }
        int nameLength = (int) Wire.readIntLenenc(p);
        columns = RowChecksum.fnv(columns, p, p.readerIndex(), nameLength);
        p.skipBytes(nameLength);
        Wire.skipStringLenenc(p);
        if (extendedMetadata) {
            // MariaDB's extended type info (a JSON or UUID format name): the other side may not have asked for it.
            Wire.skipStringLenenc(p);
        }
        Wire.readIntLenenc(p);
        p.skipBytes(2 + 4);
        columns = RowChecksum.fnv(RowChecksum.fnv(columns, 0), Wire.readInt1(p));
    }

    /** The end of a result: an EOF (5 bytes) or, under CLIENT_DEPRECATE_EOF, an OK with a 0xFE header. */
    private void terminator(ByteBuf p, int length) {
        if (length <= 5) {
            p.skipBytes(1);
            int status = -1;
            if (p.readableBytes() >= 4) {
                warnings += Wire.readInt2(p);
                status = Wire.readInt2(p);
            }
            next(status);
        } else {
            okFields(p);
        }
    }

    private void okFields(ByteBuf p) {
        p.skipBytes(1);
        affected += Math.max(0, Wire.readIntLenenc(p));
        Wire.readIntLenenc(p);
        int status = Wire.readInt2(p);
        warnings += Wire.readInt2(p);
        next(status);
    }

    private void next(int status) {
        state = status >= 0 && ServerStatus.has(status, ServerStatus.MORE_RESULTS_EXISTS) ? State.FIRST : State.DONE;
    }

    private void err(ByteBuf p) {
        p.skipBytes(1);
        int code = Wire.readInt2(p);
        if (code == MARIADB_PROGRESS_CODE) {
            return;
        }
        errorCode = code;
        if (p.isReadable() && p.getByte(p.readerIndex()) == '#' && p.readableBytes() >= 6) {
            p.skipBytes(6);
        }
        error = p.toString(p.readerIndex(), p.readableBytes(), StandardCharsets.UTF_8);
        state = State.DONE;
    }

    private boolean skip(String why) {
        uncomparable = why;
        state = State.SKIPPED;
        return false;
    }

    private void endRowUnlessContinued() {
        if (!continuation) {
            rows.add(rowHash);
        }
    }

    private static long hashPacket(long hash, int length, ByteBuf p) {
        int hashed = Math.min(Math.min(length, HASHED_BYTES), p.readableBytes());
        hash = RowChecksum.fnv(hash, p, p.readerIndex(), hashed);
        for (int shift = 0; shift < 32; shift += 8) {
            hash = RowChecksum.fnv(hash, (length >>> shift) & 0xFF);
        }
        return hash;
    }
}
