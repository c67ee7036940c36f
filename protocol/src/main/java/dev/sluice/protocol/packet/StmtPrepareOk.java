package dev.sluice.protocol.packet;

import dev.sluice.protocol.Capabilities;
import io.netty.buffer.ByteBuf;

/**
 * COM_STMT_PREPARE_OK (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_stmt_prepare.html#sect_protocol_com_stmt_prepare_response_ok).
 * num_params parameter definitions and num_columns column definitions follow it (each block ended
 * by an EOF unless CLIENT_DEPRECATE_EOF), unless metadata_follows says they are skipped.
 *
 * @param statementId unsigned 32-bit
 * @param metadataFollows 1 (RESULTSET_METADATA_FULL) when the byte is not on the wire; it is sent
 *        only with CLIENT_OPTIONAL_RESULTSET_METADATA, which {@code capabilities} records
 */
public record StmtPrepareOk(
        long statementId,
        int numColumns,
        int numParams,
        int warnings,
        int metadataFollows,
        long capabilities) implements ServerPacket {

    public static final int HEADER = 0x00;

    public static StmtPrepareOk decode(ByteBuf payload, long capabilities) {
        Fields.header(payload, HEADER, "StmtPrepareOk");
        long statementId = Fields.int4(payload, "StmtPrepareOk.statement_id");
        int columns = Fields.int2(payload, "StmtPrepareOk.num_columns");
        int params = Fields.int2(payload, "StmtPrepareOk.num_params");
        Fields.int1(payload, "StmtPrepareOk.reserved_1");
        int warnings = Fields.int2(payload, "StmtPrepareOk.warning_count");
        int metadataFollows = ColumnCount.METADATA_FULL;
        if (Capabilities.has(capabilities, Capabilities.CLIENT_OPTIONAL_RESULTSET_METADATA)) {
            metadataFollows = Fields.int1(payload, "StmtPrepareOk.metadata_follows");
        }
        Fields.end(payload, "StmtPrepareOk");
        return new StmtPrepareOk(statementId, columns, params, warnings, metadataFollows, capabilities);
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(HEADER);
        out.writeIntLE((int) statementId);
        out.writeShortLE(numColumns);
        out.writeShortLE(numParams);
        out.writeByte(0);
        out.writeShortLE(warnings);
        if (Capabilities.has(capabilities, Capabilities.CLIENT_OPTIONAL_RESULTSET_METADATA)) {
            out.writeByte(metadataFollows);
        }
    }
}
