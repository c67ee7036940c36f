package dev.sluice.protocol.checksum;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnswerChecksumTest {

    private static final long CLASSIC = Capabilities.CLIENT_PROTOCOL_41;
    private static final long DEPRECATE_EOF = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_DEPRECATE_EOF;

    @Test
    void theSameRowsGiveTheSameAnswerWithOrWithoutEofPackets() {
        Answer classic = read(CLASSIC, resultSet(false, List.of("id", "name"), "1", "a", "2", null));
        Answer modern = read(DEPRECATE_EOF, resultSet(true, List.of("id", "name"), "1", "a", "2", null));

        assertThat(classic).isEqualTo(modern);
        assertThat(classic.rows()).isEqualTo(2);
        assertThat(classic.results()).isEqualTo(1);
        assertThat(classic.differenceFrom(modern, true, "client", "shadow")).isNull();
    }

    @Test
    void mariaDbsExtendedTypeInfoIsNotADifference() {
        long extended = DEPRECATE_EOF | Capabilities.MARIADB_CLIENT_EXTENDED_METADATA;
        Answer withInfo = read(extended, resultSet(true, true, List.of("id", "doc"), "1", "{}"));
        Answer without = read(CLASSIC, resultSet(false, List.of("id", "doc"), "1", "{}"));

        assertThat(withInfo.differenceFrom(without, true, "client", "shadow")).isNull();
        assertThat(withInfo).isEqualTo(without);
    }

    @Test
    void rowsInAnotherOrderDifferOnlyUnderOrderBy() {
        Answer a = read(CLASSIC, resultSet(false, List.of("id"), "1", "2"));
        Answer b = read(CLASSIC, resultSet(false, List.of("id"), "2", "1"));

        assertThat(a.differenceFrom(b, false, "client", "shadow")).isNull();
        assertThat(a.differenceFrom(b, true, "client", "shadow")).contains("another order");
    }

    @Test
    void otherValuesOtherRowCountsOtherColumnsAndErrorsDiffer() {
        Answer a = read(CLASSIC, resultSet(false, List.of("id"), "1", "2"));

        assertThat(a.differenceFrom(read(CLASSIC, resultSet(false, List.of("id"), "1", "3")), false, "client", "shadow"))
                .isEqualTo("the same number of rows (2), other values");
        assertThat(a.differenceFrom(read(CLASSIC, resultSet(false, List.of("id"), "1")), false, "client", "shadow"))
                .isEqualTo("rows: client 2; shadow 1");
        assertThat(a.differenceFrom(read(CLASSIC, resultSet(false, List.of("ID"), "1", "2")), false, "client", "shadow"))
                .isEqualTo("columns: other names or types");
        Answer error = read(CLASSIC, List.of(err(1146, "Table 't' doesn't exist")));
        assertThat(error.errorCode()).isEqualTo(1146);
        assertThat(a.differenceFrom(error, false, "client", "shadow"))
                .isEqualTo("error: client no error; shadow 1146 (Table 't' doesn't exist)");
        assertThat(error.differenceFrom(read(CLASSIC, List.of(err(1146, "other words"))), false, "a", "b")).isNull();
    }

    @Test
    void okPacketsCountAffectedRowsAndWarnings() {
        Answer one = read(CLASSIC, List.of(ok(3, 0, 1)));
        Answer other = read(CLASSIC, List.of(ok(2, 0, 1)));

        assertThat(one.affected()).isEqualTo(3);
        assertThat(one.warnings()).isEqualTo(1);
        assertThat(one.differenceFrom(other, false, "client", "shadow")).isEqualTo("affected rows: client 3; shadow 2");
    }

    @Test
    void moreResultsKeepTheAnswerOpenUntilTheLast() {
        AnswerChecksum checksum = started(CLASSIC);
        assertThat(feed(checksum, List.of(ok(1, 0x0008, 0)))).isFalse();
        assertThat(feed(checksum, List.of(ok(2, 0, 0)))).isTrue();

        assertThat(checksum.answer().results()).isEqualTo(2);
        assertThat(checksum.answer().affected()).isEqualTo(3);
    }

    @Test
    void onlyTheFirstKibOfARowIsReadButItsLengthCounts() {
        String longValue = "x".repeat(2000);
        Answer a = read(CLASSIC, resultSet(false, List.of("v"), longValue));
        Answer sameStart = read(CLASSIC, resultSet(false, List.of("v"), "x".repeat(1500) + "y".repeat(500)));
        Answer longer = read(CLASSIC, resultSet(false, List.of("v"), longValue + "x"));

        assertThat(a.differenceFrom(sameStart, false, "a", "b")).isNull();
        assertThat(a.differenceFrom(longer, false, "a", "b")).isNotNull();
    }

    @Test
    void localInfileIsNotComparable() {
        AnswerChecksum checksum = started(CLASSIC);
        feed(checksum, List.of(Unpooled.wrappedBuffer(new byte[] {(byte) 0xFB, 'f'})));

        assertThat(checksum.answer().uncomparable()).isEqualTo("LOAD DATA LOCAL INFILE");
    }

    private static AnswerChecksum started(long capabilities) {
        AnswerChecksum checksum = new AnswerChecksum();
        checksum.begin(capabilities);
        return checksum;
    }

    private static Answer read(long capabilities, List<ByteBuf> packets) {
        AnswerChecksum checksum = started(capabilities);
        assertThat(feed(checksum, packets)).isTrue();
        return checksum.answer();
    }

    private static boolean feed(AnswerChecksum checksum, List<ByteBuf> packets) {
        boolean done = false;
        for (ByteBuf packet : packets) {
            int before = packet.readerIndex();
            done = checksum.accept(packet.readableBytes(), packet);
            assertThat(packet.readerIndex()).isEqualTo(before);
            packet.release();
        }
        return done;
    }

    /** Column count, definitions, [EOF], rows of {@code values} (row-major), then EOF or a 0xFE OK. */
    private static List<ByteBuf> resultSet(boolean deprecateEof, List<String> columns, String... values) {
        return resultSet(deprecateEof, false, columns, values);
    }

    /**
     * As above; with {@code extendedInfo}, each definition carries MariaDB's extended type info, a
     * JSON format for columns named doc, none for the others.
     */
    private static List<ByteBuf> resultSet(boolean deprecateEof, boolean extendedInfo, List<String> columns,
                                           String... values) {
        List<ByteBuf> packets = new ArrayList<>();
        ByteBuf count = Unpooled.buffer();
        Wire.writeIntLenenc(count, columns.size());
        packets.add(count);
        for (String name : columns) {
            ByteBuf def = Unpooled.buffer();
            for (String field : List.of("def", "test", "t", "t", name, name)) {
                Wire.writeStringLenenc(def, field);
            }
            if (extendedInfo) {
                ByteBuf info = Unpooled.buffer();
                if (name.equals("doc")) {
                    info.writeByte(1); // the format name
                    Wire.writeStringLenenc(info, "json");
                }
                Wire.writeIntLenenc(def, info.readableBytes());
                def.writeBytes(info);
                info.release();
            }
            def.writeByte(0x0c).writeShortLE(45).writeIntLE(11).writeByte(3).writeShortLE(0).writeByte(0).writeShortLE(0);
            packets.add(def);
        }
        if (!deprecateEof) {
            packets.add(eof());
        }
        for (int i = 0; i < values.length; i += columns.size()) {
            ByteBuf row = Unpooled.buffer();
            for (int c = 0; c < columns.size(); c++) {
                String value = values[i + c];
                if (value == null) {
                    row.writeByte(0xFB);
                } else {
                    Wire.writeBytesLenenc(row, value.getBytes(StandardCharsets.UTF_8));
                }
            }
            packets.add(row);
        }
        if (deprecateEof) {
            ByteBuf end = Unpooled.buffer().writeByte(0xFE).writeByte(0).writeByte(0).writeShortLE(2).writeShortLE(0);
            packets.add(end);
        } else {
            packets.add(eof());
        }
        return packets;
    }

    private static ByteBuf eof() {
        return Unpooled.buffer().writeByte(0xFE).writeShortLE(0).writeShortLE(2);
    }

    private static ByteBuf ok(long affected, int status, int warnings) {
        ByteBuf ok = Unpooled.buffer().writeByte(0);
        Wire.writeIntLenenc(ok, affected);
        Wire.writeIntLenenc(ok, 0);
        return ok.writeShortLE(status | 2).writeShortLE(warnings);
    }

    private static ByteBuf err(int code, String message) {
        ByteBuf err = Unpooled.buffer().writeByte(0xFF).writeShortLE(code).writeByte('#');
        err.writeCharSequence("42S02", StandardCharsets.US_ASCII);
        err.writeCharSequence(message, StandardCharsets.UTF_8);
        return err;
    }
}
