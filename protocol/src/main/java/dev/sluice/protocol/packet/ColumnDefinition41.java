package dev.sluice.protocol.packet;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.Wire;
import io.netty.buffer.ByteBuf;

/**
 * Protocol::ColumnDefinition41
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_query_response_text_resultset_column_definition.html).
 * With MARIADB_CLIENT_EXTENDED_METADATA, MariaDB adds one string&lt;lenenc&gt; between org_name
 * and the fixed-length block (type name and format pairs; empty for ordinary columns).
 *
 * @param extendedMetadata null when the capability is not negotiated
 * @param columnLength unsigned 32-bit
 * @param type a {@link ColumnTypes} value
 * @param fieldListDefault the bytes after the fixed block, which only COM_FIELD_LIST responses carry
 *        (a string&lt;lenenc&gt; default value or 0xFB); null otherwise
 */
public record ColumnDefinition41(
        String catalog,
        String schema,
        String table,
        String orgTable,
        String name,
        String orgName,
        byte[] extendedMetadata,
        int characterSet,
        long columnLength,
        int type,
        int flags,
        int decimals,
        byte[] fieldListDefault) implements ServerPacket {

    /** Length of the fixed block, which the packet announces as int&lt;lenenc&gt; 0x0c. */
    public static final int FIXED_LENGTH = 0x0C;

    /** Column flag (https://dev.mysql.com/doc/dev/mysql-server/latest/group__group__cs__column__definition__flags.html). */
    public static final int NOT_NULL_FLAG = 1;
    public static final int PRI_KEY_FLAG = 1 << 1;
    public static final int UNSIGNED_FLAG = 1 << 5;
    public static final int BINARY_FLAG = 1 << 7;

    public static ColumnDefinition41 decode(ByteBuf payload, long capabilities) {
        String catalog = Fields.stringLenenc(payload, "ColumnDefinition41.catalog");
        String schema = Fields.stringLenenc(payload, "ColumnDefinition41.schema");
        String table = Fields.stringLenenc(payload, "ColumnDefinition41.table");
        String orgTable = Fields.stringLenenc(payload, "ColumnDefinition41.org_table");
        String name = Fields.stringLenenc(payload, "ColumnDefinition41.name");
        String orgName = Fields.stringLenenc(payload, "ColumnDefinition41.org_name");
        byte[] extended = null;
        if (Capabilities.has(capabilities, Capabilities.MARIADB_CLIENT_EXTENDED_METADATA)) {
            extended = Fields.bytesLenenc(payload, "ColumnDefinition41.extended_metadata");
        }
        long fixed = Fields.intLenenc(payload, "ColumnDefinition41.length_of_fixed_length_fields");
        if (fixed != FIXED_LENGTH) {
            throw new ProtocolException("ColumnDefinition41.length_of_fixed_length_fields: " + fixed
                    + " (expected: 12)");
        }
        int characterSet = Fields.int2(payload, "ColumnDefinition41.character_set");
        long columnLength = Fields.int4(payload, "ColumnDefinition41.column_length");
        int type = Fields.int1(payload, "ColumnDefinition41.type");
        int flags = Fields.int2(payload, "ColumnDefinition41.flags");
        int decimals = Fields.int1(payload, "ColumnDefinition41.decimals");
        Fields.int2(payload, "ColumnDefinition41.filler");
        byte[] fieldListDefault = payload.isReadable() ? Fields.bytesEof(payload) : null;
        return new ColumnDefinition41(catalog, schema, table, orgTable, name, orgName, extended, characterSet,
                columnLength, type, flags, decimals, fieldListDefault);
    }

    @Override
    public void encode(ByteBuf out) {
        Wire.writeStringLenenc(out, catalog);
        Wire.writeStringLenenc(out, schema);
        Wire.writeStringLenenc(out, table);
        Wire.writeStringLenenc(out, orgTable);
        Wire.writeStringLenenc(out, name);
        Wire.writeStringLenenc(out, orgName);
        if (extendedMetadata != null) {
            Wire.writeBytesLenenc(out, extendedMetadata);
        }
        out.writeByte(FIXED_LENGTH);
        out.writeShortLE(characterSet);
        out.writeIntLE((int) columnLength);
        out.writeByte(type);
        out.writeShortLE(flags);
        out.writeByte(decimals);
        out.writeShortLE(0);
        if (fieldListDefault != null) {
            out.writeBytes(fieldListDefault);
        }
    }

    public boolean unsigned() {
        return (flags & UNSIGNED_FLAG) != 0;
    }
}
