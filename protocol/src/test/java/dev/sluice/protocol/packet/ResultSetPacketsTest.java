package dev.sluice.protocol.packet;

import static dev.sluice.protocol.packet.Bytes.ascii;
import static dev.sluice.protocol.packet.Bytes.concat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.testing.CapturedPacket;
import dev.sluice.protocol.testing.Captures;
import dev.sluice.protocol.testing.Direction;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class ResultSetPacketsTest {

    private static CapturedPacket server(String file, int index, int frame) {
        CapturedPacket packet = Captures.packets(file, Direction.SERVER_TO_CLIENT).get(index);
        assertThat(packet.frame()).isEqualTo(frame);
        return packet;
    }

    private static ColumnCount columnCount(CapturedPacket packet) {
        long caps = Negotiated.capabilities(packet.file());
        return RoundTrip.exact(packet.payload(), p -> ColumnCount.decode(p, caps), ColumnCount::encode);
    }

    private static ColumnDefinition41 column(CapturedPacket packet) {
        long caps = Negotiated.capabilities(packet.file());
        return RoundTrip.exact(packet.payload(), p -> ColumnDefinition41.decode(p, caps), ColumnDefinition41::encode);
    }

    private static StmtPrepareOk prepareOk(CapturedPacket packet) {
        long caps = Negotiated.capabilities(packet.file());
        return RoundTrip.exact(packet.payload(), p -> StmtPrepareOk.decode(p, caps), StmtPrepareOk::encode);
    }

    @Test
    void mariaDbColumnCountCarriesMetadataFollows() {
        // MariaDB 10.11, text-resultset.pcapng frame 10: "0a 01", ten columns, definitions follow.
        ColumnCount full = columnCount(server("text-resultset.pcapng", 2, 10));
        assertThat(full.columnCount()).isEqualTo(10);
        assertThat(full.metadataFollows()).isEqualTo(ColumnCount.METADATA_FULL);
        assertThat(full.columnDefinitionsFollow()).isTrue();

        // MariaDB 10.11, prepared-sysbench.pcapng frame 12: "01 00", the execute's result reuses the
        // definitions sent with the prepare (MARIADB_CLIENT_CACHE_METADATA), so none follow.
        ColumnCount cached = columnCount(server("prepared-sysbench.pcapng", 7, 12));
        assertThat(cached.columnCount()).isEqualTo(1);
        assertThat(cached.columnDefinitionsFollow()).isFalse();
    }

    @Test
    void connectorJColumnCountIsJustTheCount() {
        // MariaDB 10.11, connectorj.pcapng frame 11: "15", the init query's 21 columns.
        ColumnCount count = columnCount(server("connectorj.pcapng", 2, 11));

        assertThat(count.columnCount()).isEqualTo(21);
        assertThat(count.columnDefinitionsFollow()).isTrue();
    }

    @Test
    void mysqlOptionalMetadataPutsTheByteFirst() {
        byte[] payload = Bytes.of(
                0x00,  // metadata_follows: RESULTSET_METADATA_NONE (CLIENT_OPTIONAL_RESULTSET_METADATA)
                0x03); // column count 3
        long caps = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_OPTIONAL_RESULTSET_METADATA;

        ColumnCount count = RoundTrip.exact(payload, p -> ColumnCount.decode(p, caps), ColumnCount::encode);

        assertThat(count.columnCount()).isEqualTo(3);
        assertThat(count.columnDefinitionsFollow()).isFalse();
    }

    @Test
    void columnCountZeroIsAnOkNotAResultSet() {
        assertThatThrownBy(() -> ColumnCount.decode(Unpooled.wrappedBuffer(Bytes.of(0x00, 0x00, 0x00)), 0))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("ColumnCount.column_count: 0 (expected: >= 1; a 0x00 first byte is an OK)");
    }

    @Test
    void mariaDbColumnDefinitionsHaveAnEmptyExtendedMetadataString() {
        // MariaDB 10.11, text-resultset.pcapng frame 10: the "id" and "vc" columns of capdb.types.
        ColumnDefinition41 id = column(server("text-resultset.pcapng", 3, 10));
        assertThat(id.catalog()).isEqualTo("def");
        assertThat(id.schema()).isEqualTo("capdb");
        assertThat(id.table()).isEqualTo("types");
        assertThat(id.orgTable()).isEqualTo("types");
        assertThat(id.name()).isEqualTo("id");
        assertThat(id.orgName()).isEqualTo("id");
        assertThat(id.extendedMetadata()).isEmpty();
        assertThat(id.characterSet()).isEqualTo(63);
        assertThat(id.columnLength()).isEqualTo(11);
        assertThat(id.type()).isEqualTo(ColumnTypes.LONG);
        assertThat(id.flags()).isEqualTo(0x5003);
        assertThat(id.flags() & ColumnDefinition41.PRI_KEY_FLAG).isNotZero();
        assertThat(id.decimals()).isZero();
        assertThat(id.fieldListDefault()).isNull();

        ColumnDefinition41 vc = column(server("text-resultset.pcapng", 7, 10));
        assertThat(vc.name()).isEqualTo("vc");
        assertThat(vc.characterSet()).isEqualTo(45);
        assertThat(vc.columnLength()).isEqualTo(256);
        assertThat(vc.type()).isEqualTo(ColumnTypes.VAR_STRING);

        ColumnDefinition41 d = column(server("text-resultset.pcapng", 6, 10));
        assertThat(d.type()).isEqualTo(ColumnTypes.NEWDECIMAL);
        assertThat(d.decimals()).isEqualTo(4);
    }

    @Test
    void connectorJColumnDefinitionsHaveNoExtendedMetadata() {
        // MariaDB 10.11, connectorj.pcapng frame 23: the "name" column of capdb.five.
        ColumnDefinition41 name = column(server("connectorj.pcapng", 43, 23));

        assertThat(name.extendedMetadata()).isNull();
        assertThat(name.name()).isEqualTo("name");
        assertThat(name.characterSet()).isEqualTo(8);
        assertThat(name.columnLength()).isEqualTo(16);
        assertThat(name.type()).isEqualTo(ColumnTypes.VAR_STRING);
    }

    /** The column definition of "col1" from the MySQL docs' COM_STMT_PREPARE example. */
    @Test
    void docsColumnDefinition() {
        byte[] payload = concat(
                Bytes.of(0x03), ascii("def"),  // catalog
                Bytes.of(0x00),                // schema ""
                Bytes.of(0x00),                // table ""
                Bytes.of(0x00),                // org_table ""
                Bytes.of(0x04), ascii("col1"), // name
                Bytes.of(0x00),                // org_name ""
                Bytes.of(0x0c),                // length of the fixed-length fields
                Bytes.of(0x3f, 0x00),          // character set 63, binary
                Bytes.of(0x00, 0x00, 0x00, 0x00), // column length 0
                Bytes.of(0xfd),                // type VAR_STRING
                Bytes.of(0x80, 0x00),          // flags: BINARY_FLAG
                Bytes.of(0x1f),                // decimals 31 (not a fixed-point column)
                Bytes.of(0x00, 0x00));         // filler

        ColumnDefinition41 col = RoundTrip.exact(payload, p -> ColumnDefinition41.decode(p, 0),
                ColumnDefinition41::encode);

        assertThat(col.name()).isEqualTo("col1");
        assertThat(col.schema()).isEmpty();
        assertThat(col.type()).isEqualTo(ColumnTypes.VAR_STRING);
        assertThat(col.flags()).isEqualTo(ColumnDefinition41.BINARY_FLAG);
        assertThat(col.decimals()).isEqualTo(0x1f);
    }

    @Test
    void fieldListDefaultIsKeptAfterTheFixedBlock() {
        byte[] payload = concat(Bytes.hex("03 64 65 66 00 01 74 01 74 01 63 01 63 0c 21 00 0b 00 00 00 03 00 00 00 00 00"),
                Bytes.of(0x01, '7')); // COM_FIELD_LIST only: the default value "7"

        ColumnDefinition41 col = RoundTrip.exact(payload, p -> ColumnDefinition41.decode(p, 0),
                ColumnDefinition41::encode);

        assertThat(col.fieldListDefault()).containsExactly(0x01, '7');
    }

    @Test
    void fixedBlockOfTheWrongLengthIsReported() {
        byte[] payload = Bytes.hex("03 64 65 66 00 00 00 01 63 00 0d 3f 00 00 00 00 00 fd 80 00 1f 00 00 00");

        assertThatThrownBy(() -> ColumnDefinition41.decode(Unpooled.wrappedBuffer(payload), 0))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("ColumnDefinition41.length_of_fixed_length_fields: 13 (expected: 12)");
    }

    @Test
    void sysbenchPrepareOkAndItsParameterDefinition() {
        // MariaDB 10.11, prepared-sysbench.pcapng frame 10: SELECT c FROM sbtest1 WHERE id=?
        StmtPrepareOk ok = prepareOk(server("prepared-sysbench.pcapng", 2, 10));
        assertThat(ok.statementId()).isEqualTo(1);
        assertThat(ok.numColumns()).isEqualTo(1);
        assertThat(ok.numParams()).isEqualTo(1);
        assertThat(ok.warnings()).isZero();
        assertThat(ok.metadataFollows()).isEqualTo(ColumnCount.METADATA_FULL);

        ColumnDefinition41 param = column(server("prepared-sysbench.pcapng", 3, 10));
        assertThat(param.name()).isEqualTo("?");
        assertThat(param.type()).isEqualTo(ColumnTypes.NULL);
        assertThat(param.flags()).isEqualTo(ColumnDefinition41.BINARY_FLAG);
        assertThat(param.extendedMetadata()).isEmpty();
    }

    @Test
    void connectorJPrepareOkOnBothServers() {
        // connectorj.pcapng frame 17 (10.11): the 10-parameter INSERT is statement 1;
        // connectorj-11.4.pcapng frame 17 (11.4): the same statement gets id 2.
        StmtPrepareOk insert = prepareOk(server("connectorj.pcapng", 28, 17));
        assertThat(insert.statementId()).isEqualTo(1);
        assertThat(insert.numColumns()).isZero();
        assertThat(insert.numParams()).isEqualTo(10);

        assertThat(prepareOk(server("connectorj-11.4.pcapng", 26, 17)).statementId()).isEqualTo(2);
    }

    /** The MySQL docs' COM_STMT_PREPARE_OK for SELECT CONCAT(?, ?) AS col1. */
    @Test
    void docsPrepareOk() {
        byte[] payload = Bytes.of(
                0x00,                    // status OK
                0x01, 0x00, 0x00, 0x00,  // statement id 1
                0x01, 0x00,              // 1 column
                0x02, 0x00,              // 2 parameters
                0x00,                    // reserved filler
                0x00, 0x00);             // 0 warnings

        StmtPrepareOk ok = RoundTrip.exact(payload, p -> StmtPrepareOk.decode(p, Capabilities.CLIENT_PROTOCOL_41),
                StmtPrepareOk::encode);

        assertThat(ok).isEqualTo(new StmtPrepareOk(1, 1, 2, 0, ColumnCount.METADATA_FULL, Capabilities.CLIENT_PROTOCOL_41));
    }

    @Test
    void prepareOkWithOptionalMetadata() {
        long caps = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_OPTIONAL_RESULTSET_METADATA;
        byte[] payload = Bytes.of(0x00, 0x07, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                0x00); // metadata_follows: RESULTSET_METADATA_NONE

        StmtPrepareOk ok = RoundTrip.exact(payload, p -> StmtPrepareOk.decode(p, caps), StmtPrepareOk::encode);

        assertThat(ok.statementId()).isEqualTo(7);
        assertThat(ok.metadataFollows()).isEqualTo(ColumnCount.METADATA_NONE);
    }
}
