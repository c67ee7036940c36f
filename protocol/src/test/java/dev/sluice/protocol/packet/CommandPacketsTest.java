package dev.sluice.protocol.packet;

import static dev.sluice.protocol.packet.Bytes.ascii;
import static dev.sluice.protocol.packet.Bytes.concat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.testing.CapturedPacket;
import dev.sluice.protocol.testing.Captures;
import dev.sluice.protocol.testing.Direction;
import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CommandPacketsTest {

    /** Decodes every command of every connection of a capture, re-encodes it and counts by name. */
    private static Map<String, Integer> roundTripAll(String file) {
        Map<String, Integer> counts = new TreeMap<>();
        for (int c = 0; c < Captures.capture(file).connections().size(); c++) {
            long caps = Negotiated.capabilities(file, c);
            Map<Long, Integer> params = CapturedCommands.paramCounts(file, c);
            for (CapturedCommands.Command command : CapturedCommands.commands(file, c)) {
                ClientCommand decoded = RoundTrip.exact(command.payload(),
                        p -> ClientCommand.decode(p, caps, id -> params.getOrDefault(id, -1)), ClientCommand::encode);
                counts.merge(Commands.name(decoded.command()), 1, Integer::sum);
            }
        }
        return counts;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "handshake-native.pcapng       | {COM_QUERY=1, COM_QUIT=1}",
        "handshake-native-11.4.pcapng  | {COM_QUERY=1, COM_QUIT=1}",
        "text-resultset.pcapng         | {COM_QUERY=7, COM_QUIT=1}",
        "multi-results.pcapng          | {COM_QUERY=3, COM_QUIT=1}",
        "multi-statement.pcapng        | {COM_QUERY=1, COM_QUIT=1}",
        "load-data-local.pcapng        | {COM_QUERY=2, COM_QUIT=1}",
        "large-packet.pcapng.gz        | {COM_QUERY=4, COM_QUIT=1}",
        "prepared-sysbench.pcapng      | {COM_QUIT=1, COM_STMT_CLOSE=1, COM_STMT_EXECUTE=20, COM_STMT_PREPARE=1}",
        "prepared-sysbench-11.4.pcapng | {COM_QUIT=1, COM_STMT_CLOSE=1, COM_STMT_EXECUTE=20, COM_STMT_PREPARE=1}",
        "mysqlslap.pcapng              | {COM_INIT_DB=1, COM_QUERY=123, COM_QUIT=3}",
        "connectorj.pcapng             | {COM_CHANGE_USER=1, COM_QUERY=11, COM_QUIT=1, COM_RESET_CONNECTION=1,"
                + " COM_STMT_CLOSE=5, COM_STMT_EXECUTE=5, COM_STMT_FETCH=7, COM_STMT_PREPARE=5}",
        "connectorj-11.4.pcapng        | {COM_CHANGE_USER=1, COM_QUERY=11, COM_QUIT=1, COM_RESET_CONNECTION=1,"
                + " COM_STMT_CLOSE=5, COM_STMT_EXECUTE=5, COM_STMT_FETCH=7, COM_STMT_PREPARE=5}",
    })
    void everyCapturedCommandRoundTrips(String file, String expectedCounts) {
        assertThat(roundTripAll(file)).hasToString(expectedCounts);
    }

    @Test
    void mariadbSlapSendsATrailingNulInsideMostQueries() {
        // MariaDB 10.11, mysqlslap.pcapng: 120 of the 123 COM_QUERY payloads end with 0x00.
        long caps = Negotiated.capabilities("mysqlslap.pcapng");
        int queries = 0;
        int withNul = 0;
        for (int c = 0; c < 3; c++) {
            for (CapturedCommands.Command command : CapturedCommands.commands("mysqlslap.pcapng", c)) {
                if (command.payload()[0] == Commands.COM_QUERY) {
                    ComQuery q = ComQuery.decode(Unpooled.wrappedBuffer(command.payload()), caps);
                    queries++;
                    withNul += q.query()[q.query().length - 1] == 0 ? 1 : 0;
                }
            }
        }
        assertThat(queries).isEqualTo(123);
        assertThat(withNul).isEqualTo(120);

        // connection 1 (a worker) frame 234: "SELECT intcol1,charcol1 FROM t1" is 31 characters, payload 33
        CapturedPacket select = Captures.packets("mysqlslap.pcapng", 1, Direction.CLIENT_TO_SERVER).get(2);
        assertThat(select.frame()).isEqualTo(234);
        assertThat(select.payload()).hasSize(33);
        ComQuery q = RoundTrip.exact(select.payload(), p -> ComQuery.decode(p, caps), ComQuery::encode);
        assertThat(q.sql()).isEqualTo("SELECT intcol1,charcol1 FROM t1\0");
        assertThat(q.attributes()).isNull();
    }

    @Test
    void initDbHasNoTrailingNul() {
        // MariaDB 10.11, mysqlslap.pcapng connection 0 frame 13.
        CapturedPacket packet = Captures.inFrame("mysqlslap.pcapng", Direction.CLIENT_TO_SERVER, 13);

        ComInitDb init = RoundTrip.exact(packet.payload(), ComInitDb::decode, ComInitDb::encode);

        assertThat(init.schema()).isEqualTo("mysqlslap");
    }

    @Test
    void changeUserFromConnectorJ() {
        // MariaDB 10.11, connectorj.pcapng frame 46.
        CapturedPacket packet = Captures.inFrame("connectorj.pcapng", Direction.CLIENT_TO_SERVER, 46);
        long clientCaps = 0x013ea20eL;

        ComChangeUser change = RoundTrip.exact(packet.payload(), p -> ComChangeUser.decode(p, clientCaps),
                ComChangeUser::encode);

        assertThat(change.user()).isEqualTo("app2");
        assertThat(change.authResponse()).hasSize(20).startsWith(0x63, 0x44, 0x4e, 0x22);
        assertThat(change.database()).isEqualTo("capdb");
        assertThat(change.characterSet()).isEqualTo(45);
        assertThat(change.authPluginName()).isEqualTo("mysql_native_password");
        assertThat(change.connectAttributes()).containsEntry("_client_name", "MySQL Connector/J")
                .hasSize(HandshakeResponse41.decode(Unpooled.wrappedBuffer(
                        Captures.packets("connectorj.pcapng", Direction.CLIENT_TO_SERVER).get(0).payload()))
                        .connectAttributes().size());
    }

    @Test
    void changeUserEndingAfterTheDatabase() {
        byte[] payload = concat(
                Bytes.of(0x11),                    // COM_CHANGE_USER
                ascii("bob"), Bytes.of(0x00),      // user
                ascii("pw"), Bytes.of(0x00),       // auth data, NUL-terminated (no CLIENT_SECURE_CONNECTION)
                ascii("db"), Bytes.of(0x00));      // database; nothing follows
        long caps = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_PLUGIN_AUTH;

        ComChangeUser change = RoundTrip.exact(payload, p -> ComChangeUser.decode(p, caps), ComChangeUser::encode);

        assertThat(change.authResponse()).isEqualTo(ascii("pw"));
        assertThat(change.characterSet()).isZero();
        assertThat(change.authPluginName()).isNull();
        assertThat(change.connectAttributes()).isNull();
    }

    @Test
    void capturedSingleByteAndStatementCommands() {
        // MariaDB 10.11, connectorj.pcapng: frame 63 COM_RESET_CONNECTION, 82 COM_QUIT, 20 COM_STMT_CLOSE of
        // statement 1, 26 COM_STMT_FETCH of 2 rows of statement 2, 16 COM_STMT_PREPARE of the INSERT.
        String file = "connectorj.pcapng";
        Direction up = Direction.CLIENT_TO_SERVER;
        RoundTrip.exact(Captures.inFrame(file, up, 63).payload(), ComResetConnection::decode, ComResetConnection::encode);
        RoundTrip.exact(Captures.inFrame(file, up, 82).payload(), ComQuit::decode, ComQuit::encode);
        assertThat(RoundTrip.exact(Captures.inFrame(file, up, 20).payload(), ComStmtClose::decode,
                ComStmtClose::encode)).isEqualTo(new ComStmtClose(1));
        assertThat(RoundTrip.exact(Captures.inFrame(file, up, 26).payload(), ComStmtFetch::decode,
                ComStmtFetch::encode)).isEqualTo(new ComStmtFetch(2, 2));
        ComStmtPrepare prepare = RoundTrip.exact(Captures.inFrame(file, up, 16).payload(), ComStmtPrepare::decode,
                ComStmtPrepare::encode);
        assertThat(prepare.sql()).isEqualTo("INSERT INTO types(id,i,bi,d,vc,bl,dt,f,dte,tm) VALUES (?,?,?,?,?,?,?,?,?,?)");
    }

    /** Commands the captures do not contain, laid out as their MySQL docs pages describe. */
    @Test
    void handWrittenCommands() {
        assertThat(RoundTrip.exact(Bytes.of(0x0e), ComPing::decode, ComPing::encode)).isEqualTo(new ComPing());
        assertThat(RoundTrip.exact(Bytes.of(0x09), ComStatistics::decode, ComStatistics::encode))
                .isEqualTo(new ComStatistics());
        assertThat(RoundTrip.exact(concat(
                Bytes.of(0x04),                    // COM_FIELD_LIST
                ascii("t1"), Bytes.of(0x00),       // table
                ascii("int%")),                    // wildcard, to the end
                ComFieldList::decode, ComFieldList::encode)).isEqualTo(new ComFieldList("t1", "int%"));
        assertThat(RoundTrip.exact(Bytes.of(
                0x1b,                              // COM_SET_OPTION
                0x01, 0x00),                       // MYSQL_OPTION_MULTI_STATEMENTS_OFF
                ComSetOption::decode, ComSetOption::encode))
                .isEqualTo(new ComSetOption(ComSetOption.MULTI_STATEMENTS_OFF));
        assertThat(RoundTrip.exact(Bytes.of(
                0x1a,                              // COM_STMT_RESET
                0x05, 0x00, 0x00, 0x00),           // statement 5
                ComStmtReset::decode, ComStmtReset::encode)).isEqualTo(new ComStmtReset(5));
        ComStmtSendLongData longData = RoundTrip.exact(concat(
                Bytes.of(0x18),                    // COM_STMT_SEND_LONG_DATA
                Bytes.of(0x05, 0x00, 0x00, 0x00),  // statement 5
                Bytes.of(0x02, 0x00),              // parameter 2
                Bytes.of(0x00, 0xff, 0x10)),       // a chunk of its value
                ComStmtSendLongData::decode, ComStmtSendLongData::encode);
        assertThat(longData.statementId()).isEqualTo(5);
        assertThat(longData.paramId()).isEqualTo(2);
        assertThat(longData.data()).containsExactly(0x00, 0xff, 0x10);
    }

    @Test
    void dispatchErrorsSayWhatWasSeen() {
        assertThatThrownBy(() -> ClientCommand.decode(Unpooled.wrappedBuffer(Bytes.of(0x0c, 1, 0, 0, 0)), 0, id -> -1))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("command: COM_PROCESS_KILL (expected: one of the commands with a record in dev.sluice.protocol.packet)");
        assertThatThrownBy(() -> ClientCommand.decode(Unpooled.EMPTY_BUFFER, 0, id -> -1))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("command: empty payload (expected: a command byte)");
        assertThatThrownBy(() -> ClientCommand.decode(Unpooled.wrappedBuffer(
                Bytes.of(0x17, 9, 0, 0, 0, 0, 1, 0, 0, 0)), 0, id -> -1))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("ComStmtExecute.statement_id: 9 (expected: a prepared statement's id)");
        assertThatThrownBy(() -> ComPing.decode(Unpooled.wrappedBuffer(Bytes.of(0x0e, 0x00))))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("ComPing: 1 bytes after the last field (expected: end of payload)");
    }

    @Test
    void builtQueryEncodesCommandByteAndText() {
        assertThat(RoundTrip.encoded(ComQuery.of("select 1")::encode))
                .isEqualTo(concat(Bytes.of(0x03), ascii("select 1")));
        assertThat(List.of(ComQuery.of("x").command(), new ComQuit().command()))
                .containsExactly(Commands.COM_QUERY, Commands.COM_QUIT);
    }
}
