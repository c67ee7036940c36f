package dev.sluice.proxy.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.Wire;
import dev.sluice.protocol.packet.ColumnCount;
import dev.sluice.protocol.packet.ColumnDefinition41;
import dev.sluice.protocol.packet.ColumnTypes;
import dev.sluice.protocol.packet.EofPacket;
import dev.sluice.protocol.packet.ErrPacket;
import dev.sluice.protocol.packet.OkPacket;
import dev.sluice.protocol.packet.ServerPacket;
import dev.sluice.proxy.health.ReplicationStatus;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The health checker reads answers from real packet layouts, encoded with the protocol module's records. */
class ResultReaderTest {

    /** The health connection never negotiates CLIENT_DEPRECATE_EOF or MariaDB's extended metadata. */
    private static final long CAPS = dev.sluice.protocol.Capabilities.CLIENT_PROTOCOL_41;

    private static ByteBuf packet(ServerPacket packet) {
        ByteBuf out = Unpooled.buffer();
        packet.encode(out);
        return out;
    }

    private static ByteBuf row(String... values) {
        ByteBuf out = Unpooled.buffer();
        for (String value : values) {
            if (value == null) {
                out.writeByte(0xFB);
            } else {
                Wire.writeBytesLenenc(out, value.getBytes(StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    private static ColumnDefinition41 column(String name) {
        return new ColumnDefinition41("def", "", "", "", name, name, null, 45, 64, ColumnTypes.VAR_STRING, 0, 0, null);
    }

    private static List<ByteBuf> resultSet(List<String> columns, List<String[]> rows) {
        List<ByteBuf> packets = new ArrayList<>();
        packets.add(packet(new ColumnCount(columns.size(), ColumnCount.METADATA_FULL, CAPS)));
        columns.forEach(c -> packets.add(packet(column(c))));
        packets.add(packet(new EofPacket(0, 2)));
        rows.forEach(r -> packets.add(row(r)));
        packets.add(packet(new EofPacket(0, 2)));
        return packets;
    }

    private static QueryResult feed(List<ByteBuf> packets) {
        ResultReader reader = new ResultReader(CAPS);
        QueryResult result = null;
        for (int i = 0; i < packets.size(); i++) {
            ByteBuf payload = packets.get(i);
            try {
                QueryResult step = reader.accept(payload);
                if (i < packets.size() - 1) {
                    assertThat(step).as("no result before the last packet").isNull();
                }
                result = step;
            } finally {
                payload.release();
            }
        }
        return result;
    }

    @Test
    void readsOkErrAndResultSets() {
        assertThat(feed(List.of(packet(OkPacket.of(0, 0, 2, 0))))).isEqualTo(QueryResult.ok());
        QueryResult err = feed(List.of(packet(new ErrPacket(1064, "42000", "syntax"))));
        assertThat(err.isError()).isTrue();
        assertThat(err.errorCode()).isEqualTo(1064);
        QueryResult readOnly = feed(resultSet(List.of("@@read_only"), List.<String[]>of(new String[] {"1"})));
        assertThat(readOnly.first("@@read_only")).isEqualTo("1");
        QueryResult empty = feed(resultSet(List.of("Slave_IO_State", "Seconds_Behind_Master"), List.of()));
        assertThat(empty.rows()).isEmpty();
        assertThat(empty.first("Seconds_Behind_Master")).isNull();
    }

    @Test
    void replicationStatusFromBothSpellings() {
        ReplicationStatus mariadb = ReplicationStatus.of(feed(resultSet(
                List.of("Slave_IO_Running", "Slave_SQL_Running", "Seconds_Behind_Master", "Last_IO_Error", "Last_SQL_Error"),
                List.<String[]>of(new String[] {"Yes", "Yes", "7", "", ""}))));
        assertThat(mariadb).isEqualTo(new ReplicationStatus(true, 7L, "running"));
        ReplicationStatus stopped = ReplicationStatus.of(feed(resultSet(
                List.of("Replica_IO_Running", "Replica_SQL_Running", "Seconds_Behind_Source", "Last_IO_Error", "Last_SQL_Error"),
                List.<String[]>of(new String[] {"Yes", "No", null, "", "Error 'x' on query"}))));
        assertThat(stopped.configured()).isTrue();
        assertThat(stopped.lagSeconds()).isNull();
        assertThat(stopped.description()).isEqualTo("IO thread Yes, SQL thread No: Error 'x' on query");
        assertThat(ReplicationStatus.of(feed(resultSet(List.of("Slave_IO_State"), List.of()))))
                .isEqualTo(new ReplicationStatus(false, null, "not replicating"));
    }

    @Test
    void aBrokenResultSetIsAProtocolError() {
        ResultReader reader = new ResultReader(CAPS);
        ByteBuf count = packet(new ColumnCount(1, ColumnCount.METADATA_FULL, CAPS));
        ByteBuf definition = packet(column("a"));
        ByteBuf notEof = row("x");
        try {
            reader.accept(count);
            reader.accept(definition);
            assertThatThrownBy(() -> reader.accept(notEof)).isInstanceOf(ProtocolException.class)
                    .hasMessageContaining("expected: an EOF packet");
        } finally {
            Arrays.asList(count, definition, notEof).forEach(ByteBuf::release);
        }
    }
}
