package dev.sluice.protocol.response;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.frame.Packet;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/**
 * Hand-built responses, one per shape the tracker must recognise. Byte layouts follow the
 * MySQL docs' page_protocol_com_query_response* pages; the capture-driven test checks the same
 * against real MariaDB traffic.
 */
class ResponseTrackerTest {

    private static final long CLASSIC = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_MULTI_RESULTS
            | Capabilities.CLIENT_SESSION_TRACK;
    private static final long DEPRECATE_EOF = CLASSIC | Capabilities.CLIENT_DEPRECATE_EOF;
    private static final long MARIADB_CACHE = CLASSIC | Capabilities.MARIADB_CLIENT_CACHE_METADATA;

    // fe + warnings(2) + status(2)
    private static final String EOF_AUTOCOMMIT = "fe00000200";
    private static final String EOF_MORE_RESULTS = "fe00000a00";
    private static final String COLUMN_DEF = "0364656600000001610000"
            + "0c3f000b00000003000000000000";

    private static ByteBuf hex(String hex) {
        return Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(hex));
    }

    /** Feeds packets, asserting that only the last completes the response. */
    private static Response feed(ResponseTracker tracker, String... packets) {
        for (int i = 0; i < packets.length; i++) {
            boolean done = tracker.accept(hex(packets[i]));
            assertThat(done).as("complete after packet %d of %d (%s)", i + 1, packets.length, packets[i])
                    .isEqualTo(i == packets.length - 1);
        }
        return tracker.response();
    }

    @Test
    void okWithAffectedRowsAndInsertId() {
        ResponseTracker tracker = new ResponseTracker(CLASSIC);
        tracker.begin(Commands.COM_QUERY);
        // 00, affected 2, insert id 5, status AUTOCOMMIT, warnings 0, info "Records: 2..."
        Response r = feed(tracker, "000205020000" + "00");
        assertThat(r.kind()).isEqualTo(Response.Kind.OK);
        assertThat(r.affectedRows()).isEqualTo(2);
        assertThat(r.lastInsertId()).isEqualTo(5);
        assertThat(r.autocommit()).isTrue();
        assertThat(r.inTransaction()).isFalse();
    }

    @Test
    void errWithSqlState() {
        ResponseTracker tracker = new ResponseTracker(CLASSIC);
        tracker.begin(Commands.COM_QUERY);
        // ff, 1064 = 0x0428, '#', "42000", message
        Response r = feed(tracker, "ff2804" + "23" + "3432303030" + "796f75206861766520616e206572726f72");
        assertThat(r.kind()).isEqualTo(Response.Kind.ERR);
        assertThat(r.errorCode()).isEqualTo(1064);
        assertThat(r.sqlState()).isEqualTo("42000");
        assertThat(r.errorMessage()).isEqualTo("you have an error");
        assertThat(r.statusKnown()).isFalse();
    }

    @Test
    void textResultSetWithClassicEofs() {
        ResponseTracker tracker = new ResponseTracker(CLASSIC);
        tracker.begin(Commands.COM_QUERY);
        Response r = feed(tracker, "02", COLUMN_DEF, COLUMN_DEF, EOF_AUTOCOMMIT, "0131", "0132", "0133", "fe00000300");
        assertThat(r.kind()).isEqualTo(Response.Kind.RESULT_SET);
        // 8 packets, each a 4-byte header and its payload (hex digits / 2)
        assertThat(r.bytes()).isEqualTo(8 * 4 + (2 + 2 * COLUMN_DEF.length() + EOF_AUTOCOMMIT.length() + 3 * 4 + 10) / 2);
        assertThat(r.columns()).isEqualTo(2);
        assertThat(r.rows()).isEqualTo(3);
        assertThat(r.status()).isEqualTo(ServerStatus.AUTOCOMMIT | ServerStatus.IN_TRANS);
        assertThat(r.inTransaction()).isTrue();
    }

    @Test
    void resultSetEndingInAnOkWhenEofIsDeprecated() {
        ResponseTracker tracker = new ResponseTracker(DEPRECATE_EOF);
        tracker.begin(Commands.COM_QUERY);
        // no EOF after the definitions; rows end with fe-headed OK: fe 00 00 0200 0000
        Response r = feed(tracker, "01", COLUMN_DEF, "0131", "fe000002000000");
        assertThat(r.rows()).isEqualTo(1);
        assertThat(r.autocommit()).isTrue();
    }

    @Test
    void emptyResultSet() {
        ResponseTracker tracker = new ResponseTracker(CLASSIC);
        tracker.begin(Commands.COM_QUERY);
        Response r = feed(tracker, "01", COLUMN_DEF, EOF_AUTOCOMMIT, EOF_AUTOCOMMIT);
        assertThat(r.rows()).isZero();
        assertThat(r.resultSets()).isEqualTo(1);
    }

    @Test
    void rowStartingWithFeIsARowWhenThePacketIsFull() {
        ResponseTracker tracker = new ResponseTracker(CLASSIC);
        tracker.begin(Commands.COM_QUERY);
        tracker.accept(hex("01"));
        tracker.accept(hex(COLUMN_DEF));
        tracker.accept(hex(EOF_AUTOCOMMIT));
        // A 17 MiB value: fe + 8-byte length, in a full 0xFFFFFF packet plus a continuation
        // whose first byte happens to be ff (it must not be read as an ERR).
        assertThat(tracker.accept(hex("fe0000100100000000"), Packet.MAX_PAYLOAD)).isFalse();
        assertThat(tracker.accept(hex("ff1500"), 1_048_586)).isFalse();
        assertThat(tracker.accept(hex(EOF_AUTOCOMMIT))).isTrue();
        assertThat(tracker.response().rows()).isEqualTo(1);
    }

    @Test
    void multiResultsFromACall() {
        ResponseTracker tracker = new ResponseTracker(CLASSIC);
        tracker.begin(Commands.COM_QUERY);
        Response r = feed(tracker,
                "01", COLUMN_DEF, EOF_MORE_RESULTS, "0131", "0132", "fe00002a40",
                "01", COLUMN_DEF, "fe00002a40", "0133", "fe00002a40",
                "000000224000000000");
        assertThat(r.kind()).isEqualTo(Response.Kind.RESULT_SET);
        assertThat(r.resultSets()).isEqualTo(2);
        assertThat(r.rows()).isEqualTo(3);
        assertThat(r.sessionStateChanged()).isTrue();
    }

    @Test
    void errorEndingAMultiStatement() {
        ResponseTracker tracker = new ResponseTracker(CLASSIC);
        tracker.begin(Commands.COM_QUERY);
        Response r = feed(tracker, "01", COLUMN_DEF, EOF_MORE_RESULTS, "0131", "fe00000a00",
                "ff1e04233432533232556e6b6e6f776e20636f6c756d6e");
        assertThat(r.kind()).isEqualTo(Response.Kind.ERR);
        assertThat(r.errorCode()).isEqualTo(1054);
        assertThat(r.resultSets()).isEqualTo(1);
        assertThat(r.rows()).isEqualTo(1);
    }

    @Test
    void localInfileExchangeWithAProgressReport() {
        ResponseTracker tracker = new ResponseTracker(CLASSIC | Capabilities.CLIENT_LOCAL_FILES
                | Capabilities.MARIADB_CLIENT_PROGRESS);
        tracker.begin(Commands.COM_QUERY);
        assertThat(tracker.accept(hex("fb2f746d702f6361702e637376"))).isFalse();
        assertThat(tracker.expectsClientData()).isTrue();
        assertThatThrownBy(() -> tracker.accept(hex("00000002000000")))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("client's data");
        tracker.acceptClient(60);
        assertThat(tracker.expectsClientData()).isTrue();
        tracker.acceptClient(0);
        assertThat(tracker.expectsClientData()).isFalse();
        // MariaDB's progress report (load-data-local.pcapng frame 12) is not an error:
        assertThat(tracker.accept(hex("ffffff01020200000000" + "0f" + "456e642062756c6b20696e73657274"))).isFalse();
        assertThat(tracker.accept(hex("000300020000002e"))).isTrue();
        Response r = tracker.response();
        assertThat(r.kind()).isEqualTo(Response.Kind.OK);
        assertThat(r.localInfile()).isTrue();
        assertThat(r.affectedRows()).isEqualTo(3);
    }

    @Test
    void localInfileDataEndsOnlyAtAnEmptyPacketThatIsNotAContinuation() {
        ResponseTracker tracker = new ResponseTracker(CLASSIC);
        tracker.begin(Commands.COM_QUERY);
        tracker.accept(hex("fb66"));
        tracker.acceptClient(Packet.MAX_PAYLOAD);
        tracker.acceptClient(0);
        assertThat(tracker.expectsClientData()).as("the empty packet closes the split data packet").isTrue();
        tracker.acceptClient(0);
        assertThat(tracker.expectsClientData()).isFalse();
    }

    @Test
    void prepareOkWithParamsAndColumns() {
        ResponseTracker tracker = new ResponseTracker(CLASSIC);
        tracker.begin(Commands.COM_STMT_PREPARE);
        // 00, stmt id 1, columns 1, params 2, filler, warnings 0
        Response r = feed(tracker, "00" + "01000000" + "0100" + "0200" + "00" + "0000",
                COLUMN_DEF, COLUMN_DEF, EOF_AUTOCOMMIT, COLUMN_DEF, EOF_AUTOCOMMIT);
        assertThat(r.kind()).isEqualTo(Response.Kind.PREPARE_OK);
        assertThat(r.statementId()).isEqualTo(1);
        assertThat(r.params()).isEqualTo(2);
        assertThat(r.columns()).isEqualTo(1);
    }

    @Test
    void prepareOkWithoutDefinitionsEndsAtOnce() {
        ResponseTracker tracker = new ResponseTracker(DEPRECATE_EOF);
        tracker.begin(Commands.COM_STMT_PREPARE);
        Response r = feed(tracker, "00" + "07000000" + "0000" + "0000" + "00" + "0000");
        assertThat(r.statementId()).isEqualTo(7);
    }

    @Test
    void binaryResultWithCachedMetadataHasNoDefinitions() {
        ResponseTracker tracker = new ResponseTracker(MARIADB_CACHE);
        tracker.begin(Commands.COM_STMT_EXECUTE);
        // column count 1 + metadata-follows 0, EOF, binary row (00 header, null bitmap, value), EOF
        Response r = feed(tracker, "0100", EOF_AUTOCOMMIT, "0000" + "0161", EOF_AUTOCOMMIT);
        assertThat(r.rows()).isEqualTo(1);
        assertThat(r.columns()).isEqualTo(1);
    }

    @Test
    void cursorOpenEndsTheExecuteResponseAfterTheDefinitions() {
        ResponseTracker tracker = new ResponseTracker(DEPRECATE_EOF);
        tracker.begin(Commands.COM_STMT_EXECUTE);
        // Connector/J's cursor: definitions, then a fe-headed OK with CURSOR_EXISTS (0x0042)
        Response r = feed(tracker, "02", COLUMN_DEF, COLUMN_DEF, "fe000042000000");
        assertThat(r.cursorExists()).isTrue();
        assertThat(r.rows()).isZero();

        tracker.begin(Commands.COM_STMT_FETCH);
        r = feed(tracker, "000001", "000002", "fe000042000000");
        assertThat(r.rows()).isEqualTo(2);

        tracker.begin(Commands.COM_STMT_FETCH);
        r = feed(tracker, "fe000082000000");
        assertThat(r.lastRowSent()).isTrue();
        assertThat(r.rows()).isZero();
    }

    @Test
    void cursorWithClassicEof() {
        ResponseTracker tracker = new ResponseTracker(CLASSIC);
        tracker.begin(Commands.COM_STMT_EXECUTE);
        Response r = feed(tracker, "01", COLUMN_DEF, "fe00004200");
        assertThat(r.cursorExists()).isTrue();
    }

    @Test
    void fieldListEndsAtEof() {
        ResponseTracker tracker = new ResponseTracker(CLASSIC);
        tracker.begin(Commands.COM_FIELD_LIST);
        Response r = feed(tracker, COLUMN_DEF, COLUMN_DEF, EOF_AUTOCOMMIT);
        assertThat(r.columns()).isEqualTo(2);
    }

    @Test
    void statisticsIsOneStringPacket() {
        ResponseTracker tracker = new ResponseTracker(CLASSIC);
        tracker.begin(Commands.COM_STATISTICS);
        Response r = feed(tracker, "557074696d653a2031");
        assertThat(r.kind()).isEqualTo(Response.Kind.STATISTICS);
    }

    @Test
    void setOptionAnswersWithAnEof() {
        ResponseTracker tracker = new ResponseTracker(DEPRECATE_EOF);
        tracker.begin(Commands.COM_SET_OPTION);
        Response r = feed(tracker, EOF_AUTOCOMMIT);
        assertThat(r.kind()).isEqualTo(Response.Kind.OK);
        assertThat(r.autocommit()).isTrue();
    }

    @Test
    void changeUserWithAnAuthSwitch() {
        ResponseTracker tracker = new ResponseTracker(CLASSIC);
        tracker.begin(Commands.COM_CHANGE_USER);
        assertThat(tracker.accept(hex("fe" + "6d7973716c5f6e61746976655f70617373776f726400" + "0102030400"))).isFalse();
        assertThat(tracker.expectsClientData()).isTrue();
        tracker.acceptClient(20);
        assertThat(tracker.expectsClientData()).isFalse();
        assertThat(tracker.accept(hex("00000002000000"))).isTrue();
        assertThat(tracker.response().kind()).isEqualTo(Response.Kind.OK);
    }

    @Test
    void cachingSha2FastAuthSuccessNeedsNoClientReply() {
        ResponseTracker tracker = new ResponseTracker(CLASSIC);
        tracker.beginAuth();
        assertThat(tracker.accept(hex("0103"))).isFalse();
        assertThat(tracker.expectsClientData()).isFalse();
        assertThat(tracker.accept(hex("00000002000000"))).isTrue();
    }

    @Test
    void malformedInputIsAProtocolExceptionNamingThePhase() {
        ResponseTracker tracker = new ResponseTracker(CLASSIC);
        tracker.begin(Commands.COM_QUERY);
        assertThatThrownBy(() -> tracker.accept(hex("fd")))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("int<3>")
                .hasMessageContaining("FIRST of COM_QUERY");
        tracker.begin(Commands.COM_QUERY);
        assertThatThrownBy(() -> tracker.accept(hex("")))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("empty packet");
        tracker.begin(Commands.COM_QUERY);
        tracker.accept(hex("01"));
        tracker.accept(hex(COLUMN_DEF));
        assertThatThrownBy(() -> tracker.accept(hex("0131")))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("expected: EOF after column definitions")
                .hasMessageContaining("COLUMNS_EOF of COM_QUERY");
    }

    @Test
    void packetsWithNoResponseInProgressAreRefused() {
        ResponseTracker tracker = new ResponseTracker(CLASSIC);
        assertThatThrownBy(() -> tracker.accept(hex("00000002000000")))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("no response in progress");
        assertThatThrownBy(() -> tracker.begin(Commands.COM_STMT_CLOSE))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
