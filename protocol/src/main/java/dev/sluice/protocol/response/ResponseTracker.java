package dev.sluice.protocol.response;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.Wire;
import dev.sluice.protocol.frame.Packet;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Finds where the response to one command ends by reading only packet headers: the first byte,
 * and the few fields of OK, EOF, ERR, column-count and prepare-OK packets. Rows are counted, never
 * decoded, so a proxy can forward bytes as they arrive and still know when a response is complete
 * and what it was.
 *
 * <p>Feed it the server's physical packets in order with {@link #accept}; a payload may be a
 * prefix of the packet (its first bytes) as long as the real length is given: the fields read here
 * all sit in the first few dozen bytes. Packets that continue a 0xFFFFFF-byte packet are skipped.
 * Where the client must speak in the middle of a response (LOCAL INFILE data, an auth switch in
 * COM_CHANGE_USER) {@link #expectsClientData()} says so and {@link #acceptClient} takes the
 * client's packets.
 *
 * <p>Layouts: https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_query_response.html,
 * page_protocol_binary_resultset.html, page_protocol_com_stmt_prepare.html, and MariaDB's
 * "Result set packets" (the metadata-follows byte of MARIADB_CLIENT_CACHE_METADATA).
 */
public final class ResponseTracker {

    /** Above this a column count is treated as corrupt input (servers cap tables at 4096). */
    private static final long MAX_COLUMNS = 65_535;
    private static final int MARIADB_PROGRESS_CODE = 0xFFFF;

    private enum State {
        IDLE, FIRST, AUTH, LOCAL_INFILE_DATA, COLUMN_DEFS, COLUMNS_EOF, ROWS,
        PREPARE_PARAMS, PREPARE_PARAMS_EOF, PREPARE_COLUMNS, PREPARE_COLUMNS_EOF, FIELD_LIST, DONE
    }

    private final long capabilities;
    private final boolean deprecateEof;
    private final boolean metadataFollowsByte;

    private State state = State.IDLE;
    private int command = -1;
    private boolean serverContinuation;
    private boolean clientContinuation;
    private boolean awaitingClient;
    private long remaining;

    private Response.Kind kind;
    private int status;
    private int errorCode;
    private String sqlState;
    private String errorMessage;
    private int resultSets;
    private int columns;
    private long rows;
    private long affectedRows;
    private long lastInsertId;
    private int warnings;
    private long statementId;
    private int params;
    private long bytes;
    private boolean localInfile;
    private boolean sessionStateChanged;
    private boolean lastWasOk;
    private boolean lastWasRow;

    /**
     * @param capabilities the capabilities negotiated on this connection (64-bit, MariaDB's included)
     * @throws IllegalArgumentException for CLIENT_OPTIONAL_RESULTSET_METADATA, whose metadata byte
     *         precedes the column count and would make a result set look like an OK: whoever uses
     *         this tracker must not negotiate it
     */
    public ResponseTracker(long capabilities) {
        if (Capabilities.has(capabilities, Capabilities.CLIENT_OPTIONAL_RESULTSET_METADATA)) {
            throw new IllegalArgumentException("CLIENT_OPTIONAL_RESULTSET_METADATA is not supported");
        }
        this.capabilities = capabilities;
        this.deprecateEof = Capabilities.has(capabilities, Capabilities.CLIENT_DEPRECATE_EOF);
        this.metadataFollowsByte = Capabilities.has(capabilities, Capabilities.MARIADB_CLIENT_CACHE_METADATA);
    }

    public long capabilities() {
        return capabilities;
    }

    /** Starts tracking the response to {@code command} (a COM_* byte). */
    public void begin(int command) {
        if (Commands.expectsNoResponse(command)) {
            throw new IllegalArgumentException(Commands.name(command) + " gets no response to track");
        }
        this.command = command;
        state = switch (command) {
            case Commands.COM_STMT_FETCH -> State.ROWS;
            case Commands.COM_FIELD_LIST -> State.FIELD_LIST;
            case Commands.COM_CHANGE_USER -> State.AUTH;
            default -> State.FIRST;
        };
        serverContinuation = false;
        clientContinuation = false;
        awaitingClient = false;
        remaining = 0;
        kind = null;
        status = -1;
        errorCode = 0;
        sqlState = null;
        errorMessage = null;
        resultSets = 0;
        columns = 0;
        rows = 0;
        affectedRows = 0;
        lastInsertId = 0;
        warnings = 0;
        statementId = -1;
        params = 0;
        bytes = 0;
        localInfile = false;
        sessionStateChanged = false;
    }

    /** Tracks the response to an auth exchange (the connection phase after the greeting). */
    public void beginAuth() {
        begin(Commands.COM_CHANGE_USER);
    }

    public boolean inProgress() {
        return state != State.IDLE && state != State.DONE;
    }

    public boolean isComplete() {
        return state == State.DONE;
    }

    /** The command whose response is tracked, or -1. */
    public int command() {
        return command;
    }

    /** True while the client must send the next packet (LOCAL INFILE data, auth data). */
    public boolean expectsClientData() {
        return awaitingClient;
    }

    /** The server asked for a LOCAL INFILE's contents and waits for them. */
    public boolean awaitsLocalFile() {
        return state == State.LOCAL_INFILE_DATA;
    }

    /** Feeds one whole physical server packet. */
    public boolean accept(ByteBuf payload) {
        return accept(payload, payload.readableBytes());
    }

    /**
     * Feeds one physical server packet of {@code length} bytes whose first bytes are readable in
     * {@code payload} (the reader index is left where it was).
     *
     * @return true when this packet completed the response
     */
    public boolean accept(ByteBuf payload, int length) {
        bytes += Packet.HEADER_SIZE + length;
        boolean continuation = serverContinuation;
        serverContinuation = length == Packet.MAX_PAYLOAD;
        if (continuation) {
            return false;
        }
        if (state == State.IDLE || state == State.DONE) {
            throw new ProtocolException("unexpected server packet of " + length + " bytes (expected: no"
                    + " response in progress)");
        }
        if (awaitingClient) {
            throw new ProtocolException("server packet of " + length + " bytes while the client's data"
                    + " was expected in " + phase());
        }
        lastWasOk = false;
        lastWasRow = false;
        // Reads move the reader index; it is put back, which spares a duplicate per packet.
        int start = payload.readerIndex();
        try {
            if (length == 0) {
                throw new ProtocolException("empty packet (expected: a response packet)");
            }
            dispatch(payload, length);
        } catch (ProtocolException e) {
            throw e.in(phase());
        } finally {
            payload.readerIndex(start);
        }
        return state == State.DONE;
    }

    /**
     * Feeds one physical client packet sent while {@link #expectsClientData()} was true (the reader
     * index is not moved). LOCAL INFILE data ends with an empty packet; an auth exchange takes one
     * packet per server request.
     */
    public void acceptClient(int length) {
        boolean continuation = clientContinuation;
        clientContinuation = length == Packet.MAX_PAYLOAD;
        if (!awaitingClient) {
            throw new ProtocolException("client packet of " + length + " bytes (expected: none while "
                    + phase() + ")");
        }
        if (state == State.LOCAL_INFILE_DATA) {
            if (length == 0 && !continuation) {
                awaitingClient = false;
                state = State.FIRST;
            }
        } else if (!clientContinuation) {
            awaitingClient = false;
        }
    }

    /**
     * True when the packet just accepted was an OK (also the 0xFE-headed OK that ends result sets
     * under DEPRECATE_EOF): the packet that carries session state changes.
     */
    public boolean lastPacketWasOk() {
        return lastWasOk;
    }

    /** True when the packet just accepted was a row of a result set. */
    public boolean lastPacketWasRow() {
        return lastWasRow;
    }

    /** Server status flags of the last OK or EOF of the current response so far, or -1. */
    public int status() {
        return status;
    }

    /** The outcome of the completed response. */
    public Response response() {
        if (state != State.DONE) {
            throw new IllegalStateException("response not complete (" + phase() + ")");
        }
        return new Response(kind, status, errorCode, sqlState, errorMessage, resultSets, columns, rows,
                affectedRows, lastInsertId, warnings, statementId, params, localInfile, sessionStateChanged, bytes);
    }

    /** Where the tracker is, for error messages: e.g. "ROWS of COM_QUERY". */
    public String phase() {
        return state + (command >= 0 ? " of " + Commands.name(command) : "");
    }

    private void dispatch(ByteBuf p, int length) {
        int header = p.getUnsignedByte(p.readerIndex());
        switch (state) {
            case FIRST -> first(p, header, length);
            case AUTH -> auth(p, header);
            case COLUMN_DEFS -> {
                if (header == 0xFF) {
                    err(p);
                } else if (--remaining == 0) {
                    state = deprecateEof ? State.ROWS : State.COLUMNS_EOF;
                }
            }
            case COLUMNS_EOF -> {
                if (header == 0xFF) {
                    err(p);
                } else if (header == 0xFE && length < 9) {
                    eof(p);
                    // A cursor was opened: rows come later, through COM_STMT_FETCH.
                    state = ServerStatus.has(status, ServerStatus.CURSOR_EXISTS) ? State.DONE : State.ROWS;
                } else {
                    throw new ProtocolException("header 0x" + Integer.toHexString(header) + ", length " + length
                            + " (expected: EOF after column definitions)");
                }
            }
            case ROWS -> rowOrEnd(p, header, length);
            case PREPARE_PARAMS, PREPARE_COLUMNS -> {
                if (--remaining == 0) {
                    state = afterDefinitions(state == State.PREPARE_PARAMS);
                }
            }
            case PREPARE_PARAMS_EOF, PREPARE_COLUMNS_EOF -> {
                expectEofHeader(header, length);
                state = state == State.PREPARE_PARAMS_EOF ? startPrepareColumns() : State.DONE;
            }
            case FIELD_LIST -> {
                if (header == 0xFF) {
                    err(p);
                } else if (header == 0xFE && length < Packet.MAX_PAYLOAD) {
                    terminator(p, length);
                    kind = Response.Kind.RESULT_SET;
                    resultSets++;
                    state = State.DONE;
                } else {
                    columns++;
                }
            }
            default -> throw new IllegalStateException(state.name());
        }
    }

    private void first(ByteBuf p, int header, int length) {
        if (command == Commands.COM_STATISTICS && header != 0xFF) {
            kind = Response.Kind.STATISTICS;
            state = State.DONE;
            return;
        }
        switch (header) {
            case 0x00 -> {
                if (command == Commands.COM_STMT_PREPARE) {
                    prepareOk(p);
                } else {
                    ok(p);
                }
            }
            case 0xFF -> err(p);
            case 0xFE -> {
                // COM_SET_OPTION and COM_DEBUG answer with an EOF; with DEPRECATE_EOF it is an OK.
                terminator(p, length);
                if (kind == null) {
                    kind = Response.Kind.OK;
                }
                afterTerminal();
            }
            case 0xFB -> {
                localInfile = true;
                awaitingClient = true;
                clientContinuation = false;
                state = State.LOCAL_INFILE_DATA;
            }
            default -> columnCount(p);
        }
    }

    private void auth(ByteBuf p, int header) {
        switch (header) {
            case 0x00 -> ok(p);
            case 0xFF -> err(p);
            case 0xFE -> awaitingClient = true;
            case 0x01 -> {
                // caching_sha2_password: 0x03 is "fast auth succeeded", an OK follows without a reply.
                boolean fastAuthSuccess = p.readableBytes() >= 2 && p.getUnsignedByte(p.readerIndex() + 1) == 0x03;
                awaitingClient = !fastAuthSuccess;
            }
            default -> throw new ProtocolException("header 0x" + Integer.toHexString(header)
                    + " (expected: OK, ERR, auth switch 0xfe or auth more data 0x01)");
        }
    }

    private void columnCount(ByteBuf p) {
        long count = Wire.readIntLenenc(p);
        if (count <= 0 || count > MAX_COLUMNS) {
            throw new ProtocolException("column count " + count + " (expected: 1.." + MAX_COLUMNS + ")");
        }
        boolean definitionsFollow = true;
        if (metadataFollowsByte) {
            definitionsFollow = Wire.readInt1(p) != 0;
        }
        columns = (int) count;
        resultSets++;
        kind = kind == Response.Kind.ERR ? kind : Response.Kind.RESULT_SET;
        remaining = definitionsFollow ? count : 0;
        if (remaining > 0) {
            state = State.COLUMN_DEFS;
        } else {
            state = deprecateEof ? State.ROWS : State.COLUMNS_EOF;
        }
    }

    private void rowOrEnd(ByteBuf p, int header, int length) {
        if (header == 0xFF) {
            err(p);
        } else if (header == 0xFE && length < Packet.MAX_PAYLOAD && (deprecateEof || length < 9)) {
            // A row whose first value is >= 16 MiB also starts with 0xFE, but then the packet is a
            // full 0xFFFFFF bytes; anything shorter is the end of the rows.
            terminator(p, length);
            if (kind == null) {
                kind = Response.Kind.RESULT_SET;
            }
            afterTerminal();
        } else {
            rows++;
            lastWasRow = true;
        }
    }

    private void prepareOk(ByteBuf p) {
        Wire.need(p, 12, "COM_STMT_PREPARE_OK");
        p.skipBytes(1);
        statementId = Wire.readInt4(p);
        columns = Wire.readInt2(p);
        params = Wire.readInt2(p);
        p.skipBytes(1);
        warnings = Wire.readInt2(p);
        kind = Response.Kind.PREPARE_OK;
        remaining = params;
        state = params > 0 ? State.PREPARE_PARAMS : startPrepareColumns();
    }

    private State startPrepareColumns() {
        remaining = columns;
        return columns > 0 ? State.PREPARE_COLUMNS : State.DONE;
    }

    private State afterDefinitions(boolean wereParams) {
        if (!deprecateEof) {
            return wereParams ? State.PREPARE_PARAMS_EOF : State.PREPARE_COLUMNS_EOF;
        }
        return wereParams ? startPrepareColumns() : State.DONE;
    }

    private void expectEofHeader(int header, int length) {
        if (header != 0xFE || length >= 9) {
            throw new ProtocolException("header 0x" + Integer.toHexString(header) + ", length " + length
                    + " (expected: EOF after definitions)");
        }
    }

    /**
     * An OK or EOF ending a result or a response. With DEPRECATE_EOF servers send an OK with a 0xFE
     * header (at least 7 bytes) where they used to send a 5-byte EOF; the length tells them apart.
     */
    private void terminator(ByteBuf p, int length) {
        if (length <= 5) {
            eof(p);
        } else {
            okFields(p);
        }
    }

    private void ok(ByteBuf p) {
        okFields(p);
        if (kind == null) {
            kind = Response.Kind.OK;
        }
        afterTerminal();
    }

    private void okFields(ByteBuf p) {
        lastWasOk = true;
        p.skipBytes(1);
        long affected = Wire.readIntLenenc(p);
        long insertId = Wire.readIntLenenc(p);
        affectedRows += Math.max(affected, 0);
        if (insertId > 0) {
            lastInsertId = insertId;
        }
        status = Wire.readInt2(p);
        warnings = Wire.readInt2(p);
        if (ServerStatus.has(status, ServerStatus.SESSION_STATE_CHANGED)) {
            sessionStateChanged = true;
        }
    }

    private void eof(ByteBuf p) {
        p.skipBytes(1);
        if (p.readableBytes() >= 4) {
            warnings = Wire.readInt2(p);
            status = Wire.readInt2(p);
        }
    }

    private void err(ByteBuf p) {
        p.skipBytes(1);
        int code = Wire.readInt2(p);
        if (code == MARIADB_PROGRESS_CODE) {
            // MariaDB's progress report (MARIADB_CLIENT_PROGRESS): not an error, the response goes on.
            return;
        }
        kind = Response.Kind.ERR;
        errorCode = code;
        status = -1;
        if (p.isReadable() && p.getByte(p.readerIndex()) == '#' && p.readableBytes() >= 6) {
            p.skipBytes(1);
            sqlState = p.readCharSequence(5, StandardCharsets.US_ASCII).toString();
        }
        errorMessage = p.readCharSequence(p.readableBytes(), StandardCharsets.UTF_8).toString();
        state = State.DONE;
    }

    private void afterTerminal() {
        state = status >= 0 && ServerStatus.has(status, ServerStatus.MORE_RESULTS_EXISTS) ? State.FIRST : State.DONE;
    }
}
