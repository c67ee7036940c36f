package dev.sluice.protocol.packet;

import static dev.sluice.protocol.packet.Bytes.ascii;
import static dev.sluice.protocol.packet.Bytes.concat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.ProtocolException;
import io.netty.buffer.Unpooled;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ComStmtExecuteTest {

    private static final long QUERY_ATTRIBUTES = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_QUERY_ATTRIBUTES;

    private static List<CapturedCommands.Command> executes(String file) {
        return CapturedCommands.commands(file, 0).stream()
                .filter(c -> (c.payload()[0] & 0xFF) == Commands.COM_STMT_EXECUTE).toList();
    }

    private static ComStmtExecute execute(byte[] payload, long caps, int numParams) {
        return RoundTrip.exact(payload, p -> ComStmtExecute.decode(p, caps, numParams), ComStmtExecute::encode);
    }

    @Test
    void connectorJInsertWithTenTypedParameters() {
        // MariaDB 10.11, connectorj.pcapng frame 18: the server reports 5.5.5, so Connector/J sends the
        // TIMESTAMP as 7 bytes without microseconds.
        CapturedCommands.Command command = executes("connectorj.pcapng").get(0);
        assertThat(command.frame()).isEqualTo(18);

        ComStmtExecute e = execute(command.payload(), Negotiated.capabilities("connectorj.pcapng"), 10);

        assertThat(e.statementId()).isEqualTo(1);
        assertThat(e.cursorType()).isEqualTo(ComStmtExecute.CURSOR_TYPE_NO_CURSOR);
        assertThat(e.iterationCount()).isEqualTo(1);
        assertThat(e.parameterCount()).isEmpty();
        BoundParameters p = e.parameters();
        assertThat(p.count()).isEqualTo(10);
        assertThat(p.nullBitmap()).containsExactly(0x00, 0x02);
        assertThat(p.newParamsBindFlag()).isEqualTo(1);
        assertThat(p.types()).extracting(ParameterType::type).containsExactly(ColumnTypes.LONG, ColumnTypes.LONG,
                ColumnTypes.LONGLONG, ColumnTypes.NEWDECIMAL, ColumnTypes.VAR_STRING, ColumnTypes.VAR_STRING,
                ColumnTypes.TIMESTAMP, ColumnTypes.DOUBLE, ColumnTypes.DATE, ColumnTypes.NULL);
        assertThat(p.isNull(9)).isTrue();
        List<Object> values = p.decodeValues();
        assertThat(values.subList(0, 4)).containsExactly(100L, -7L, Long.MIN_VALUE, new BigDecimal("-1234.5678"));
        assertThat(new String((byte[]) values.get(4), StandardCharsets.UTF_8)).isEqualTo("Grüße 世界 😀");
        assertThat((byte[]) values.get(5)).containsExactly(0x00, 0x01, 0xfe, 0xff);
        assertThat(values.subList(6, 10)).containsExactly(new BinaryDateTime(2024, 2, 29, 13, 45, 59, 0), 2.5,
                new BinaryDateTime(2024, 2, 29, 0, 0, 0, 0), null);
    }

    @Test
    void connectorJAgainstMariaDb114SendsMicroseconds() {
        // MariaDB 11.4, connectorj-11.4.pcapng: same INSERT, statement id 2, TIMESTAMP as 11 bytes.
        CapturedCommands.Command command = executes("connectorj-11.4.pcapng").get(0);

        ComStmtExecute e = execute(command.payload(), Negotiated.capabilities("connectorj-11.4.pcapng"), 10);

        assertThat(e.statementId()).isEqualTo(2);
        BinaryDateTime timestamp = (BinaryDateTime) e.parameters().decodeValues().get(6);
        assertThat(timestamp.toLocalDateTime()).isEqualTo(LocalDateTime.of(2024, 2, 29, 13, 45, 59, 123_456_000));
    }

    @Test
    void cursorExecuteAndExecuteWithoutParameters() {
        // MariaDB 10.11, connectorj.pcapng frame 24: CURSOR_TYPE_READ_ONLY, one LONG parameter (0);
        // frame 58: SELECT CURRENT_USER() has no parameters, so nothing follows the iteration count.
        List<CapturedCommands.Command> all = executes("connectorj.pcapng");
        long caps = Negotiated.capabilities("connectorj.pcapng");
        assertThat(all.get(1).frame()).isEqualTo(24);
        ComStmtExecute cursor = execute(all.get(1).payload(), caps, 1);
        assertThat(cursor.flags()).isEqualTo(ComStmtExecute.CURSOR_TYPE_READ_ONLY);
        assertThat(cursor.parameters().decodeValues()).containsExactly(0L);

        assertThat(all.get(3).frame()).isEqualTo(58);
        ComStmtExecute none = execute(all.get(3).payload(), caps, 0);
        assertThat(none.statementId()).isEqualTo(4);
        assertThat(none.parameters()).isNull();
        assertThat(all.get(3).payload()).hasSize(10);
    }

    @Test
    void sysbenchRebindsOnlyOnTheFirstExecute() {
        // MariaDB 10.11, prepared-sysbench.pcapng: execute 1 sends new-params-bound=1 with LONGLONG,
        // executes 2..20 send 0 and no types; their values are read with execute 1's types.
        List<CapturedCommands.Command> all = executes("prepared-sysbench.pcapng");
        long caps = Negotiated.capabilities("prepared-sysbench.pcapng");
        ComStmtExecute first = execute(all.get(0).payload(), caps, 1);
        ComStmtExecute second = execute(all.get(1).payload(), caps, 1);

        assertThat(first.parameters().types()).containsExactly(ParameterType.of(ColumnTypes.LONGLONG, false));
        assertThat(first.parameters().decodeValues()).containsExactly(50L);
        assertThat(second.parameters().newParamsBindFlag()).isZero();
        assertThat(second.parameters().types()).isEmpty();
        assertThat(second.parameters().values()).hasSize(8);
        assertThat(second.parameters().decodeValues(first.parameters().types())).containsExactly(51L);
        assertThatThrownBy(() -> second.parameters().decodeValues())
                .isInstanceOf(IllegalStateException.class);
    }

    /** The MySQL docs' COM_STMT_EXECUTE example: statement 1 with one VARCHAR parameter "foo". */
    @Test
    void docsExample() {
        byte[] payload = concat(
                Bytes.of(0x17),                    // COM_STMT_EXECUTE
                Bytes.of(0x01, 0x00, 0x00, 0x00),  // statement id 1
                Bytes.of(0x00),                    // flags: CURSOR_TYPE_NO_CURSOR
                Bytes.of(0x01, 0x00, 0x00, 0x00),  // iteration count 1
                Bytes.of(0x00),                    // NULL bitmap: no NULLs
                Bytes.of(0x01),                    // new-params-bound flag
                Bytes.of(0x0f, 0x00),              // parameter type VARCHAR, signed
                Bytes.of(0x03), ascii("foo"));     // value as string<lenenc>

        ComStmtExecute e = execute(payload, Capabilities.CLIENT_PROTOCOL_41, 1);

        assertThat(e.statementId()).isEqualTo(1);
        assertThat(e.parameters().types()).containsExactly(ParameterType.of(ColumnTypes.VARCHAR, false));
        assertThat((byte[]) e.parameters().decodeValues().get(0)).isEqualTo(ascii("foo"));
    }

    @Test
    void queryAttributesOnAStatementWithoutParameters() {
        byte[] payload = concat(
                Bytes.of(0x17),                    // COM_STMT_EXECUTE
                Bytes.of(0x07, 0x00, 0x00, 0x00),  // statement id 7
                Bytes.of(0x08),                    // flags: PARAMETER_COUNT_AVAILABLE
                Bytes.of(0x01, 0x00, 0x00, 0x00),  // iteration count 1
                Bytes.of(0x01),                    // parameter_count 1 (an attribute; num_params is 0)
                Bytes.of(0x00),                    // NULL bitmap
                Bytes.of(0x01),                    // new-params-bound flag
                Bytes.of(0xfe, 0x00),              // type STRING
                Bytes.of(0x05), ascii("trace"),    // parameter name
                Bytes.of(0x03), ascii("abc"));     // value

        ComStmtExecute e = execute(payload, QUERY_ATTRIBUTES, 0);

        assertThat(e.parameterCount()).isEqualTo(OptionalLong.of(1));
        assertThat(e.cursorType()).isEqualTo(ComStmtExecute.CURSOR_TYPE_NO_CURSOR);
        assertThat(e.parameters().types()).containsExactly(new ParameterType(ColumnTypes.STRING, 0, "trace"));
        assertThat((byte[]) e.parameters().decodeValues().get(0)).isEqualTo(ascii("abc"));
    }

    @Test
    void queryWithAttributes() {
        byte[] payload = concat(
                Bytes.of(0x03),                    // COM_QUERY
                Bytes.of(0x02),                    // parameter_count 2
                Bytes.of(0x01),                    // parameter_set_count 1
                Bytes.of(0x02),                    // NULL bitmap: the second is NULL
                Bytes.of(0x01),                    // new-params-bound flag
                Bytes.of(0x08, 0x80), Bytes.of(0x02), ascii("id"), // LONGLONG unsigned, name "id"
                Bytes.of(0x06, 0x00), Bytes.of(0x01), ascii("n"),  // NULL, name "n"
                Bytes.of(0x2a, 0, 0, 0, 0, 0, 0, 0),              // id = 42 (no bytes for the NULL)
                ascii("SELECT 1"));                // the query, to the end of the packet

        ComQuery q = RoundTrip.exact(payload, p -> ComQuery.decode(p, QUERY_ATTRIBUTES), ComQuery::encode);

        assertThat(q.sql()).isEqualTo("SELECT 1");
        assertThat(q.attributes().parameterCount()).isEqualTo(2);
        assertThat(q.attributes().parameterSetCount()).isEqualTo(1);
        assertThat(q.attributes().parameters().types()).containsExactly(
                new ParameterType(ColumnTypes.LONGLONG, ParameterType.UNSIGNED, "id"),
                new ParameterType(ColumnTypes.NULL, 0, "n"));
        assertThat(q.attributes().parameters().decodeValues()).containsExactly(42L, null);
    }

    @Test
    void queryWithEmptyAttributes() {
        byte[] payload = concat(Bytes.of(0x03, 0x00, 0x01), ascii("SELECT 1"));

        ComQuery q = RoundTrip.exact(payload, p -> ComQuery.decode(p, QUERY_ATTRIBUTES), ComQuery::encode);

        assertThat(q.attributes()).isEqualTo(QueryAttributes.NONE);
        assertThat(q.sql()).isEqualTo("SELECT 1");
    }

    @Test
    void queryAttributesWithoutTypesCannotBeDelimited() {
        byte[] payload = concat(Bytes.of(0x03, 0x01, 0x01, 0x00, 0x00), ascii("SELECT 1"));

        assertThatThrownBy(() -> ComQuery.decode(Unpooled.wrappedBuffer(payload), QUERY_ATTRIBUTES))
                .isInstanceOf(ProtocolException.class)
                .hasMessageStartingWith("ComQuery.new_params_bind_flag: 0 (expected: 1");
    }

    @Test
    void parameterCountBeyondThePacketIsReported() {
        byte[] payload = Bytes.of(0x17, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0x00);

        assertThatThrownBy(() -> ComStmtExecute.decode(Unpooled.wrappedBuffer(payload), 0, 60))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("ComStmtExecute.parameter_count: 60 (expected: a NULL bitmap that fits in the 1 remaining bytes)");
    }
}
