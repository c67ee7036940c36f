package dev.sluice.protocol.packet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Binary protocol values, per the binary result set page's value table. */
class BinaryValuesTest {

    private static Object read(int type, boolean unsigned, int... bytes) {
        ByteBuf in = Unpooled.wrappedBuffer(Bytes.of(bytes));
        Object value = BinaryValues.read(in, type, unsigned);
        assertThat(in.isReadable()).as("value fully read").isFalse();
        ByteBuf again = Unpooled.wrappedBuffer(Bytes.of(bytes));
        BinaryValues.skip(again, type);
        assertThat(again.isReadable()).as("skip covers the same bytes").isFalse();
        return value;
    }

    @Test
    void integersSignedAndUnsigned() {
        assertThat(read(ColumnTypes.TINY, false, 0xff)).isEqualTo(-1L);
        assertThat(read(ColumnTypes.TINY, true, 0xff)).isEqualTo(255L);
        assertThat(read(ColumnTypes.SHORT, false, 0x00, 0x80)).isEqualTo(-32768L);
        assertThat(read(ColumnTypes.YEAR, true, 0xe8, 0x07)).isEqualTo(2024L);
        assertThat(read(ColumnTypes.INT24, false, 0xff, 0xff, 0xff, 0xff)).isEqualTo(-1L);
        assertThat(read(ColumnTypes.LONG, true, 0xff, 0xff, 0xff, 0xff)).isEqualTo(4_294_967_295L);
        assertThat(read(ColumnTypes.LONGLONG, true, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))
                .isEqualTo(new BigInteger("18446744073709551615"));
        assertThat(read(ColumnTypes.LONGLONG, true, 1, 0, 0, 0, 0, 0, 0, 0)).isEqualTo(1L);
    }

    @Test
    void floatingPoint() {
        assertThat(read(ColumnTypes.FLOAT, false, 0x00, 0x00, 0xc0, 0x3f)).isEqualTo(1.5f);
        assertThat(read(ColumnTypes.DOUBLE, false, 0x6e, 0x86, 0x1b, 0xf0, 0xf9, 0x21, 0x09, 0x40))
                .isEqualTo(3.14159);
    }

    @Test
    void datesAndTimes() {
        assertThat(read(ColumnTypes.DATE, false, 0x00)).isEqualTo(BinaryDateTime.ZERO);
        assertThat(read(ColumnTypes.DATETIME, false, 0x0b, 0xda, 0x07, 0x0a, 0x11, 0x13, 0x1b, 0x1e, 0x01, 0, 0, 0))
                .isEqualTo(new BinaryDateTime(2010, 10, 17, 19, 27, 30, 1));
        // -12:34:56.789 as MariaDB sends it in the text-resultset capture's time(3) column
        BinaryTime time = (BinaryTime) read(ColumnTypes.TIME, false,
                0x0c, 0x01, 0, 0, 0, 0, 0x0c, 0x22, 0x38, 0x08, 0x0a, 0x0c, 0x00);
        assertThat(time).isEqualTo(new BinaryTime(true, 0, 12, 34, 56, 789_000));
        assertThat(time.toDuration()).isEqualTo(Duration.ofHours(-12).minusMinutes(34).minusSeconds(56).minusMillis(789));
        assertThat(read(ColumnTypes.TIME, false, 0x08, 0x00, 0x02, 0, 0, 0, 0x01, 0x00, 0x00))
                .isEqualTo(new BinaryTime(false, 2, 1, 0, 0, 0));
    }

    @Test
    void stringsAndNull() {
        assertThat((byte[]) read(ColumnTypes.BLOB, false, 0x02, 0x00, 0xff)).containsExactly(0x00, 0xff);
        assertThat(read(ColumnTypes.NEWDECIMAL, false, 0x04, '1', '.', '2', '5')).isEqualTo(new BigDecimal("1.25"));
        assertThat(read(ColumnTypes.NULL, false)).isNull();
    }

    @Test
    void badValuesAreReported() {
        assertThatThrownBy(() -> BinaryValues.read(Unpooled.wrappedBuffer(Bytes.of(0x05, 0, 0, 0, 0, 0)),
                ColumnTypes.DATETIME, false))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("binary value of type DATETIME: length 5 (expected: 0, 4, 7 or 11)");
        assertThatThrownBy(() -> BinaryValues.skip(Unpooled.wrappedBuffer(Bytes.of(0x01)), 99))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("binary value of type TYPE_99: unknown type 99 (expected: an enum_field_types value)");
        assertThatThrownBy(() -> BinaryValues.read(Unpooled.wrappedBuffer(Bytes.of(0x02, 'x', '!')),
                ColumnTypes.DECIMAL, false))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("binary value of type DECIMAL: 'x!' (expected: a decimal number)");
        assertThatThrownBy(() -> BinaryValues.skip(Unpooled.wrappedBuffer(Bytes.of(0x05, 'a')), ColumnTypes.STRING))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("binary value of type STRING: length 5 (expected: <= 1 remaining bytes)");
    }
}
