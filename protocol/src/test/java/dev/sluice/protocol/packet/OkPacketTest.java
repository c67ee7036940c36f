package dev.sluice.protocol.packet;

import static dev.sluice.protocol.packet.Bytes.ascii;
import static dev.sluice.protocol.packet.Bytes.concat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.packet.SessionStateChange.Gtids;
import dev.sluice.protocol.packet.SessionStateChange.Schema;
import dev.sluice.protocol.packet.SessionStateChange.StateChange;
import dev.sluice.protocol.packet.SessionStateChange.SystemVariable;
import dev.sluice.protocol.packet.SessionStateChange.TransactionCharacteristics;
import dev.sluice.protocol.packet.SessionStateChange.TransactionState;
import dev.sluice.protocol.packet.SessionStateChange.Unknown;
import dev.sluice.protocol.testing.CapturedPacket;
import dev.sluice.protocol.testing.Captures;
import dev.sluice.protocol.testing.Direction;
import io.netty.buffer.Unpooled;
import java.util.List;
import org.junit.jupiter.api.Test;

class OkPacketTest {

    private static OkPacket ok(String file, int frame) {
        return decode(Captures.inFrame(file, Direction.SERVER_TO_CLIENT, frame));
    }

    /** The server packet at {@code index}, which must have started in {@code frame}. */
    private static OkPacket okAt(String file, int index, int frame) {
        CapturedPacket packet = Captures.packets(file, Direction.SERVER_TO_CLIENT).get(index);
        assertThat(packet.frame()).isEqualTo(frame);
        return decode(packet);
    }

    private static OkPacket decode(CapturedPacket packet) {
        long caps = Negotiated.capabilities(packet.file());
        return RoundTrip.exact(packet.payload(), p -> OkPacket.decode(p, caps), OkPacket::encode);
    }

    @Test
    void loginOkOnMariaDb1011IsSevenBytes() {
        // MariaDB 10.11, handshake-native.pcapng frame 8 (seq 2).
        OkPacket ok = ok("handshake-native.pcapng", 8);

        assertThat(ok.header()).isEqualTo(OkPacket.HEADER);
        assertThat(ok.affectedRows()).isZero();
        assertThat(ok.lastInsertId()).isZero();
        assertThat(ok.statusFlags()).isEqualTo(ServerStatus.AUTOCOMMIT);
        assertThat(ok.warnings()).isZero();
        assertThat(ok.info()).isEmpty();
        assertThat(ok.sessionStateChanges()).isNull();
    }

    @Test
    void loginOkOnMariaDb114CarriesA65ByteInfoString() {
        // MariaDB 11.4, handshake-native-11.4.pcapng frame 8: 0x01 then a SHA-256 in hex, even without TLS.
        OkPacket ok = ok("handshake-native-11.4.pcapng", 8);

        assertThat(ok.statusFlags()).isEqualTo(ServerStatus.AUTOCOMMIT);
        assertThat(ok.info()).hasSize(65).startsWith("\u00012FE0765619").matches("\u0001[0-9A-F]{64}");
        assertThat(ok.sessionStateChanges()).isNull();
    }

    @Test
    void loginWithDatabaseReportsTheSchemaAsSessionState() {
        // MariaDB 10.11, prepared-sysbench.pcapng frame 8 (seq 2): status 0x4002, SCHEMA capdb.
        OkPacket ok = ok("prepared-sysbench.pcapng", 8);

        assertThat(ok.statusFlags()).isEqualTo(ServerStatus.AUTOCOMMIT | ServerStatus.SESSION_STATE_CHANGED);
        assertThat(ok.info()).isEmpty();
        assertThat(ok.sessionStateChanges()).containsExactly(new Schema("capdb"));
    }

    @Test
    void mariaDb114LoginWithDatabaseHasInfoAndSessionState() {
        // MariaDB 11.4, prepared-sysbench-11.4.pcapng frame 8.
        OkPacket ok = ok("prepared-sysbench-11.4.pcapng", 8);

        assertThat(ok.info()).hasSize(65);
        assertThat(ok.sessionStateChanges()).containsExactly(new Schema("capdb"));
    }

    @Test
    void procedureOkReportsAnEmptySchema() {
        // MariaDB 10.11, multi-results.pcapng frame 16: the CALL's final OK, status 0x4022.
        OkPacket ok = ok("multi-results.pcapng", 16);

        assertThat(ok.statusFlags()).isEqualTo(0x4022);
        assertThat(ok.sessionStateChanges()).containsExactly(new Schema(""));
    }

    @Test
    void initDbOkFromMariadbSlap() {
        // MariaDB 10.11, mysqlslap.pcapng connection 0 frame 14: the answer to COM_INIT_DB mysqlslap.
        OkPacket ok = ok("mysqlslap.pcapng", 14);

        assertThat(ok.sessionStateChanges()).containsExactly(new Schema("mysqlslap"));
    }

    @Test
    void insertOkWithAffectedRowsInsertIdAndInfo() {
        // MariaDB 10.11, text-resultset.pcapng frame 14: two-row INSERT.
        OkPacket ok = ok("text-resultset.pcapng", 14);

        assertThat(ok.affectedRows()).isEqualTo(2);
        assertThat(ok.lastInsertId()).isEqualTo(5);
        assertThat(ok.info()).isEqualTo("Records: 2  Duplicates: 0  Warnings: 0");
        // frame 16: DROP TABLE IF EXISTS of a missing table leaves one Note
        assertThat(ok("text-resultset.pcapng", 16).warnings()).isEqualTo(1);
    }

    @Test
    void loadDataOkAfterTheProgressReport() {
        // MariaDB 10.11, load-data-local.pcapng frame 13 (seq 5).
        OkPacket ok = ok("load-data-local.pcapng", 13);

        assertThat(ok.affectedRows()).isEqualTo(3);
        assertThat(ok.info()).isEqualTo("Records: 3  Deleted: 0  Skipped: 0  Warnings: 0");
    }

    @Test
    void connectorJResultSetsEndWithAnOkHeaded0xFe() {
        // MariaDB 10.11, connectorj.pcapng frame 11 (seq 24): end of the init query's 21-column result
        // (CLIENT_DEPRECATE_EOF); frames 25 and 31: cursor opened, then last row sent.
        OkPacket end = okAt("connectorj.pcapng", 25, 11);
        assertThat(end.header()).isEqualTo(OkPacket.EOF_HEADER);
        assertThat(end.statusFlags()).isEqualTo(ServerStatus.AUTOCOMMIT);

        assertThat(okAt("connectorj.pcapng", 47, 25).statusFlags())
                .isEqualTo(ServerStatus.AUTOCOMMIT | ServerStatus.CURSOR_EXISTS);
        assertThat(okAt("connectorj.pcapng", 55, 31).statusFlags())
                .isEqualTo(ServerStatus.AUTOCOMMIT | ServerStatus.LAST_ROW_SENT);
    }

    /** The MySQL docs' OK_Packet example: 0 rows, insert id 0, AUTOCOMMIT, 0 warnings. */
    @Test
    void docsExample() {
        byte[] payload = Bytes.of(
                0x00,        // header
                0x00,        // affected rows 0
                0x00,        // last insert id 0
                0x02, 0x00,  // status: SERVER_STATUS_AUTOCOMMIT
                0x00, 0x00); // warnings 0

        OkPacket ok = RoundTrip.exact(payload, p -> OkPacket.decode(p, Capabilities.CLIENT_PROTOCOL_41),
                OkPacket::encode);

        assertThat(ok).isEqualTo(OkPacket.of(0, 0, ServerStatus.AUTOCOMMIT, 0));
    }

    /** Every session-track type, laid out as the OK_Packet page's Session State Information describes. */
    static final byte[] WITH_SESSION_STATE = concat(
            Bytes.of(0x00),                                      // header
            Bytes.of(0xfc, 0xe8, 0x03),                          // affected rows 1000 (0xfc + int<2>)
            Bytes.of(0x07),                                      // last insert id 7
            Bytes.of(0x01, 0x40),                                // status: IN_TRANS | SESSION_STATE_CHANGED
            Bytes.of(0x01, 0x00),                                // 1 warning
            Bytes.of(0x00),                                      // info: empty string<lenenc>
            Bytes.of(0x73),                                      // session state info: 115 bytes
            Bytes.of(0x00, 0x0f),                                // SYSTEM_VARIABLES, 15 bytes of data
            Bytes.of(0x0a), ascii("autocommit"), Bytes.of(0x03), ascii("OFF"),
            Bytes.of(0x01, 0x05), Bytes.of(0x04), ascii("test"), // SCHEMA "test"
            Bytes.of(0x02, 0x02), Bytes.of(0x01), ascii("1"),    // STATE_CHANGE "1"
            Bytes.of(0x03, 0x29), Bytes.of(0x00),                // GTIDS, 41 bytes, encoding 0
            Bytes.of(0x27), ascii("3E11FA47-71CA-11E1-9E33-C80AA9429562:23"),
            Bytes.of(0x04, 0x1b), Bytes.of(0x1a), ascii("SET TRANSACTION READ ONLY;"), // characteristics
            Bytes.of(0x05, 0x09), Bytes.of(0x08), ascii("T_______"), // TRANSACTION_STATE
            Bytes.of(0x7f, 0x02, 0xab, 0xcd));                   // an unknown type, kept raw

    @Test
    void everySessionStateTypeDecodesAndReencodes() {
        long caps = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SESSION_TRACK;

        OkPacket ok = RoundTrip.exact(WITH_SESSION_STATE, p -> OkPacket.decode(p, caps), OkPacket::encode);

        assertThat(ok.affectedRows()).isEqualTo(1000);
        assertThat(ok.lastInsertId()).isEqualTo(7);
        assertThat(ok.statusFlags()).isEqualTo(ServerStatus.IN_TRANS | ServerStatus.SESSION_STATE_CHANGED);
        assertThat(ok.warnings()).isEqualTo(1);
        assertThat(ok.sessionStateChanges()).hasSize(7);
        assertThat(ok.sessionStateChanges().subList(0, 6)).containsExactly(
                new SystemVariable("autocommit", "OFF"), new Schema("test"), new StateChange("1"),
                new Gtids(0, "3E11FA47-71CA-11E1-9E33-C80AA9429562:23"),
                new TransactionCharacteristics("SET TRANSACTION READ ONLY;"), new TransactionState("T_______"));
        Unknown unknown = (Unknown) ok.sessionStateChanges().get(6);
        assertThat(unknown.type()).isEqualTo(0x7f);
        assertThat(unknown.data()).containsExactly(0xab, 0xcd);
    }

    /** MariaDB writes the state-change entry as the bare character '1', not as a string<lenenc>. */
    @Test
    void mariaDbStateChangeEntryHasNoInnerLengthPrefix() {
        long caps = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SESSION_TRACK;
        byte[] bytes = Bytes.of(
                0x00,             // OK
                0x00, 0x00,       // affected rows 0, last insert id 0
                0x02, 0x40,       // status AUTOCOMMIT | SESSION_STATE_CHANGED
                0x00, 0x00,       // warnings 0
                0x00,             // info ""
                0x03,             // session state info: 3 bytes
                0x02, 0x01, 0x31  // STATE_CHANGE, 1 byte of data: '1' (as MariaDB 11.4 sends it)
        );
        OkPacket ok = RoundTrip.exact(bytes, p -> OkPacket.decode(p, caps), OkPacket::encode);
        assertThat(ok.sessionStateChanges()).containsExactly(new StateChange("1", false));
    }

    @Test
    void builtOkWithSessionStateEncodesToTheSameBytes() {
        OkPacket built = new OkPacket(OkPacket.HEADER, 1000, 7, 0x4001, 1, "", List.of(
                new SystemVariable("autocommit", "OFF"), new Schema("test"), new StateChange("1"),
                new Gtids(0, "3E11FA47-71CA-11E1-9E33-C80AA9429562:23"),
                new TransactionCharacteristics("SET TRANSACTION READ ONLY;"), new TransactionState("T_______"),
                new Unknown(0x7f, Bytes.of(0xab, 0xcd))));

        assertThat(RoundTrip.encoded(built::encode)).isEqualTo(WITH_SESSION_STATE);
    }

    @Test
    void withoutSessionTrackTheStateBlockIsNotRead() {
        assertThatThrownBy(() -> OkPacket.decode(Unpooled.wrappedBuffer(WITH_SESSION_STATE),
                Capabilities.CLIENT_PROTOCOL_41))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("OkPacket: 116 bytes after the last field (expected: end of payload)");
    }

    @Test
    void sessionStateEntryLongerThanItsBlockIsReported() {
        byte[] bad = WITH_SESSION_STATE.clone();
        bad[12] = 0x7f; // SYSTEM_VARIABLES data length 127 inside a 115-byte block
        long caps = Capabilities.CLIENT_SESSION_TRACK;

        assertThatThrownBy(() -> OkPacket.decode(Unpooled.wrappedBuffer(bad), caps))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("OkPacket.session_state_info data: length 127 (expected: <= 113 remaining bytes)");
    }

    @Test
    void schemaEntryWithExtraBytesIsReported() {
        byte[] bad = concat(Bytes.of(0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x05),
                Bytes.of(0x01, 0x03, 0x01, 'x', 'y'));

        assertThatThrownBy(() -> OkPacket.decode(Unpooled.wrappedBuffer(bad), Capabilities.CLIENT_SESSION_TRACK))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("OkPacket.session_state_info type 1: 1 bytes after the entry's value (expected: end of entry)");
    }

    @Test
    void wrongHeaderIsReported() {
        assertThatThrownBy(() -> OkPacket.decode(Unpooled.wrappedBuffer(Bytes.of(0xff, 0x15, 0x04)), 0))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("OkPacket.header: 0xff (expected: 0x00 or 0xfe)");
    }

    @Test
    void anEofIsNotAnOk() {
        assertThatThrownBy(() -> OkPacket.decode(Unpooled.wrappedBuffer(Bytes.of(0xfe, 0x00, 0x00, 0x02, 0x00)), 0))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("int<2>: needs 2 bytes (available: 0) in OkPacket.warnings");
    }
}
