package dev.sluice.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.Wire;
import dev.sluice.protocol.packet.ColumnCount;
import dev.sluice.protocol.packet.ColumnDefinition41;
import dev.sluice.protocol.packet.ColumnTypes;
import dev.sluice.protocol.packet.EofPacket;
import dev.sluice.protocol.packet.ErrPacket;
import dev.sluice.protocol.packet.OkPacket;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Admin answers decoded again with the protocol module's decoders: what a client would read. */
class ResultSetWriterTest {

    private static ByteBuf next(EmbeddedChannel channel, int sequenceId) {
        ByteBuf frame = channel.readOutbound();
        assertThat(frame).as("a packet with sequence id " + sequenceId).isNotNull();
        assertThat(frame.getUnsignedMediumLE(0)).isEqualTo(frame.readableBytes() - 4);
        assertThat(frame.getUnsignedByte(3)).isEqualTo((short) sequenceId);
        frame.skipBytes(4);
        return frame;
    }

    @Test
    void aTableIsATextResultSetWithClassicEofs() {
        EmbeddedChannel channel = new EmbeddedChannel();
        Table table = new Table.Builder("backends").text("name").integer("queries").decimal("p95_ms")
                .row("replica1", 12, 1.25).row(null, 0, null).build();
        new ResultSetWriter(channel, 1).table(table);

        ByteBuf count = next(channel, 1);
        assertThat(ColumnCount.decode(count, 0).columnCount()).isEqualTo(3);
        count.release();
        int[] types = {ColumnTypes.VAR_STRING, ColumnTypes.LONGLONG, ColumnTypes.NEWDECIMAL};
        String[] names = {"name", "queries", "p95_ms"};
        for (int i = 0; i < 3; i++) {
            ByteBuf column = next(channel, 2 + i);
            ColumnDefinition41 definition = ColumnDefinition41.decode(column, 0);
            assertThat(definition.name()).isEqualTo(names[i]);
            assertThat(definition.table()).isEqualTo("backends");
            assertThat(definition.type()).isEqualTo(types[i]);
            column.release();
        }
        ByteBuf eof = next(channel, 5);
        assertThat(EofPacket.decode(eof).statusFlags()).isEqualTo(2);
        eof.release();
        ByteBuf first = next(channel, 6);
        assertThat(Wire.readStringLenenc(first, StandardCharsets.UTF_8)).isEqualTo("replica1");
        assertThat(Wire.readStringLenenc(first, StandardCharsets.UTF_8)).isEqualTo("12");
        assertThat(Wire.readStringLenenc(first, StandardCharsets.UTF_8)).isEqualTo("1.250");
        assertThat(first.isReadable()).isFalse();
        first.release();
        ByteBuf second = next(channel, 7);
        assertThat(second.readUnsignedByte()).as("NULL").isEqualTo((short) 0xFB);
        assertThat(Wire.readStringLenenc(second, StandardCharsets.UTF_8)).isEqualTo("0");
        assertThat(second.readUnsignedByte()).as("NULL").isEqualTo((short) 0xFB);
        second.release();
        ByteBuf end = next(channel, 8);
        assertThat(EofPacket.matches(end)).isTrue();
        end.release();
        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void okAndErr() {
        EmbeddedChannel channel = new EmbeddedChannel();
        new ResultSetWriter(channel, 1).ok(2, "replica1 weight 1 -> 3");
        ByteBuf ok = next(channel, 1);
        OkPacket decoded = OkPacket.decode(ok, dev.sluice.protocol.Capabilities.CLIENT_PROTOCOL_41);
        assertThat(decoded.affectedRows()).isEqualTo(2);
        assertThat(decoded.info()).isEqualTo("replica1 weight 1 -> 3");
        ok.release();
        new ResultSetWriter(channel, 1).error(1146, "42S02", "Table 'x' doesn't exist");
        ByteBuf err = next(channel, 1);
        assertThat(ErrPacket.decode(err, dev.sluice.protocol.Capabilities.CLIENT_PROTOCOL_41))
                .isEqualTo(new ErrPacket(1146, "42S02", "Table 'x' doesn't exist"));
        err.release();
        assertThat(channel.finish()).isFalse();
    }
}
