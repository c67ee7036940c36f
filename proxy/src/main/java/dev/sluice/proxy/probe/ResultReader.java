package dev.sluice.proxy.probe;

import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.Wire;
import dev.sluice.protocol.packet.ColumnDefinition41;
import dev.sluice.protocol.packet.EofPacket;
import dev.sluice.protocol.packet.ErrPacket;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the answer to one command, packet by packet, on a connection that did not negotiate
 * CLIENT_DEPRECATE_EOF: OK, ERR, or column count, column definitions, EOF, text rows, EOF
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_query_response_text_resultset.html).
 */
final class ResultReader {

    private enum State { FIRST, COLUMNS, COLUMNS_EOF, ROWS }

    private final long capabilities;
    private State state = State.FIRST;
    private long columnsLeft;
    private final List<String> columns = new ArrayList<>();
    private final List<Map<String, String>> rows = new ArrayList<>();

    ResultReader(long capabilities) {
        this.capabilities = capabilities;
    }

    /** Feeds one packet's payload; returns the result once the answer is complete, else null. */
    QueryResult accept(ByteBuf payload) {
        int header = payload.isReadable() ? payload.getUnsignedByte(payload.readerIndex()) : -1;
        switch (state) {
            case FIRST -> {
                if (header == 0x00) {
                    return QueryResult.ok();
                }
                if (header == ErrPacket.HEADER) {
                    ErrPacket err = ErrPacket.decode(payload, capabilities);
                    return QueryResult.error(err.errorCode(), err.errorMessage());
                }
                columnsLeft = Wire.readIntLenenc(payload);
                if (columnsLeft <= 0) {
                    throw new ProtocolException("column count: " + columnsLeft + " (expected: >= 1)");
                }
                state = State.COLUMNS;
            }
            case COLUMNS -> {
                columns.add(ColumnDefinition41.decode(payload, capabilities).name());
                if (--columnsLeft == 0) {
                    state = State.COLUMNS_EOF;
                }
            }
            case COLUMNS_EOF -> {
                if (!EofPacket.matches(payload)) {
                    throw new ProtocolException("packet after the column definitions: header " + header
                            + " (expected: an EOF packet)");
                }
                state = State.ROWS;
            }
            case ROWS -> {
                if (EofPacket.matches(payload)) {
                    return new QueryResult(0, null, List.copyOf(columns), List.copyOf(rows));
                }
                if (header == ErrPacket.HEADER) {
                    ErrPacket err = ErrPacket.decode(payload, capabilities);
                    return QueryResult.error(err.errorCode(), err.errorMessage());
                }
                rows.add(row(payload));
            }
        }
        return null;
    }

    private Map<String, String> row(ByteBuf payload) {
        Map<String, String> row = new LinkedHashMap<>();
        for (String column : columns) {
            if (payload.isReadable() && payload.getUnsignedByte(payload.readerIndex()) == 0xFB) {
                payload.skipBytes(1);
                row.put(column, null);
            } else {
                row.put(column, Wire.readStringLenenc(payload, StandardCharsets.UTF_8));
            }
        }
        return row;
    }
}
