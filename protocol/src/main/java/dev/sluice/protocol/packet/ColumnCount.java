package dev.sluice.protocol.packet;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.Wire;
import io.netty.buffer.ByteBuf;

/**
 * The first packet of a result set
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_query_response_text_resultset.html):
 * the column count, plus a "metadata follows" byte whose place depends on who defined it. MariaDB
 * (MARIADB_CLIENT_CACHE_METADATA) puts it after the count, and 0 there means the column
 * definitions are not resent (prepared-sysbench's executes); MySQL
 * (CLIENT_OPTIONAL_RESULTSET_METADATA) puts it before the count.
 *
 * @param metadataFollows 1 (RESULTSET_METADATA_FULL) when the byte is not on the wire
 * @param capabilities the negotiated capabilities, which place the byte
 */
public record ColumnCount(long columnCount, int metadataFollows, long capabilities) implements ServerPacket {

    public static final int METADATA_NONE = 0;
    public static final int METADATA_FULL = 1;

    public static ColumnCount decode(ByteBuf payload, long capabilities) {
        int metadataFollows = METADATA_FULL;
        boolean mariaDbCache = Capabilities.has(capabilities, Capabilities.MARIADB_CLIENT_CACHE_METADATA);
        if (!mariaDbCache && Capabilities.has(capabilities, Capabilities.CLIENT_OPTIONAL_RESULTSET_METADATA)) {
            metadataFollows = Fields.int1(payload, "ColumnCount.metadata_follows");
        }
        long count = Fields.intLenenc(payload, "ColumnCount.column_count");
        if (count == 0) {
            throw new ProtocolException("ColumnCount.column_count: 0 (expected: >= 1; a 0x00 first byte is an OK)");
        }
        if (mariaDbCache) {
            metadataFollows = Fields.int1(payload, "ColumnCount.metadata_follows");
        }
        Fields.end(payload, "ColumnCount");
        return new ColumnCount(count, metadataFollows, capabilities);
    }

    @Override
    public void encode(ByteBuf out) {
        boolean mariaDbCache = Capabilities.has(capabilities, Capabilities.MARIADB_CLIENT_CACHE_METADATA);
        if (!mariaDbCache && Capabilities.has(capabilities, Capabilities.CLIENT_OPTIONAL_RESULTSET_METADATA)) {
            out.writeByte(metadataFollows);
        }
        Wire.writeIntLenenc(out, columnCount);
        if (mariaDbCache) {
            out.writeByte(metadataFollows);
        }
    }

    /** False when the server skips the column definitions (the client cached them). */
    public boolean columnDefinitionsFollow() {
        return metadataFollows != METADATA_NONE;
    }
}
