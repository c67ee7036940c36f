package dev.sluice.protocol.packet;

import static dev.sluice.protocol.packet.Bytes.ascii;
import static dev.sluice.protocol.packet.Bytes.concat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.testing.CapturedPacket;
import dev.sluice.protocol.testing.Captures;
import dev.sluice.protocol.testing.Direction;
import io.netty.buffer.Unpooled;
import java.util.List;
import org.junit.jupiter.api.Test;

class ErrEofProgressTest {

    private static ErrPacket err(String file, int frame) {
        CapturedPacket packet = Captures.inFrame(file, Direction.SERVER_TO_CLIENT, frame);
        long caps = Negotiated.capabilities(file);
        return RoundTrip.exact(packet.payload(), p -> ErrPacket.decode(p, caps), ErrPacket::encode);
    }

    @Test
    void accessDenied() {
        // MariaDB 10.11, auth-fail.pcapng frame 8 (seq 2).
        ErrPacket err = err("auth-fail.pcapng", 8);

        assertThat(err.errorCode()).isEqualTo(1045);
        assertThat(err.sqlState()).isEqualTo("28000");
        assertThat(err.errorMessage()).isEqualTo("Access denied for user 'app'@'localhost' (using password: YES)");
    }

    @Test
    void syntaxErrorAndUnknownColumn() {
        // MariaDB 10.11, text-resultset.pcapng frame 22 and multi-statement.pcapng frame 15.
        ErrPacket syntax = err("text-resultset.pcapng", 22);
        assertThat(syntax.errorCode()).isEqualTo(1064);
        assertThat(syntax.sqlState()).isEqualTo("42000");
        assertThat(syntax.errorMessage()).startsWith("You have an error in your SQL syntax")
                .endsWith("near 'SELEC 1' at line 1");

        ErrPacket unknown = err("multi-statement.pcapng", 15);
        assertThat(unknown.errorCode()).isEqualTo(1054);
        assertThat(unknown.sqlState()).isEqualTo("42S22");
        assertThat(unknown.errorMessage()).isEqualTo("Unknown column 'x' in 'SELECT'");
    }

    /** The MySQL docs' ERR_Packet example. */
    @Test
    void docsExample() {
        byte[] payload = concat(
                Bytes.of(0xff),               // header
                Bytes.of(0x48, 0x04),         // error code 1096
                ascii("#"),                   // SQL state marker
                ascii("HY000"),               // SQL state
                ascii("No tables used"));     // message, to the end of the packet

        ErrPacket err = RoundTrip.exact(payload, p -> ErrPacket.decode(p, Capabilities.CLIENT_PROTOCOL_41),
                ErrPacket::encode);

        assertThat(err).isEqualTo(new ErrPacket(1096, "HY000", "No tables used"));
    }

    @Test
    void errBeforeTheHandshakeHasNoSqlState() {
        byte[] payload = concat(Bytes.of(0xff, 0x10, 0x04), ascii("Too many connections"));

        ErrPacket before = RoundTrip.exact(payload, p -> ErrPacket.decode(p, 0), ErrPacket::encode);
        ErrPacket unmarked = RoundTrip.exact(payload, p -> ErrPacket.decode(p, Capabilities.CLIENT_PROTOCOL_41),
                ErrPacket::encode);

        assertThat(before).isEqualTo(new ErrPacket(1040, null, "Too many connections"));
        assertThat(unmarked).isEqualTo(before);
    }

    @Test
    void progressReportDuringLoadDataIsNotAnError() {
        // MariaDB 10.11, load-data-local.pcapng frame 12 (seq 4), between the file and the final OK.
        CapturedPacket packet = Captures.inFrame("load-data-local.pcapng", Direction.SERVER_TO_CLIENT, 12);
        assertThat(packet.seq()).isEqualTo(4);
        assertThat(ProgressReport.matches(Unpooled.wrappedBuffer(packet.payload()))).isTrue();

        ProgressReport progress = RoundTrip.exact(packet.payload(), ProgressReport::decode, ProgressReport::encode);

        assertThat(progress).isEqualTo(new ProgressReport(1, 2, 2, 0, "End bulk insert"));
        assertThat(progress.percent()).isZero();
        long caps = Negotiated.capabilities("load-data-local.pcapng");
        assertThat(Capabilities.has(caps, Capabilities.MARIADB_CLIENT_PROGRESS)).isTrue();
        assertThatThrownBy(() -> ErrPacket.decode(Unpooled.wrappedBuffer(packet.payload()), caps))
                .isInstanceOf(ProtocolException.class)
                .hasMessageStartingWith("ErrPacket.error_code: 0xffff is a MariaDB progress report");
    }

    @Test
    void progressReportByteLayout() {
        byte[] payload = concat(
                Bytes.of(0xff),               // ERR header
                Bytes.of(0xff, 0xff),         // error code 0xFFFF: progress
                Bytes.of(0x01),               // one string follows
                Bytes.of(0x01),               // stage 1
                Bytes.of(0x03),               // of 3 stages
                Bytes.of(0xa0, 0x86, 0x01),   // progress 100000 = 100.000 %
                Bytes.of(0x04), ascii("copy"));

        ProgressReport progress = RoundTrip.exact(payload, ProgressReport::decode, ProgressReport::encode);

        assertThat(progress.percent()).isEqualTo(100.0);
        assertThat(progress.stageName()).isEqualTo("copy");
        assertThat(ProgressReport.matches(Unpooled.wrappedBuffer(Bytes.of(0xff, 0x48, 0x04)))).isFalse();
    }

    @Test
    void eofWithWarningsAndWithMoreResults() {
        // MariaDB 10.11, text-resultset.pcapng frame 18: final EOF with 2 warnings; multi-results.pcapng
        // frame 15: EOF of a procedure's result set with MORE_RESULTS_EXISTS | SESSION_STATE_CHANGED.
        CapturedPacket warned = Captures.packets("text-resultset.pcapng", Direction.SERVER_TO_CLIENT).get(30);
        assertThat(warned.frame()).isEqualTo(18);
        EofPacket eof = RoundTrip.exact(warned.payload(), EofPacket::decode, EofPacket::encode);
        assertThat(eof).isEqualTo(new EofPacket(2, ServerStatus.AUTOCOMMIT));

        CapturedPacket more = Captures.packets("multi-results.pcapng", Direction.SERVER_TO_CLIENT).get(24);
        assertThat(more.frame()).isEqualTo(15);
        EofPacket moreEof = RoundTrip.exact(more.payload(), EofPacket::decode, EofPacket::encode);
        assertThat(moreEof.statusFlags()).isEqualTo(0x402a);
        assertThat(ServerStatus.has(moreEof.statusFlags(), ServerStatus.MORE_RESULTS_EXISTS)).isTrue();
    }

    /** The MySQL docs' EOF_Packet example. */
    @Test
    void eofDocsExample() {
        byte[] payload = Bytes.of(
                0xfe,        // header
                0x00, 0x00,  // warnings 0
                0x02, 0x00); // status: SERVER_STATUS_AUTOCOMMIT

        assertThat(RoundTrip.exact(payload, EofPacket::decode, EofPacket::encode))
                .isEqualTo(new EofPacket(0, ServerStatus.AUTOCOMMIT));
    }

    @Test
    void a16MibRowStartingWith0xFeIsNotAnEof() {
        // MariaDB 10.11, large-packet.pcapng.gz frame 399: the row of SELECT b (seq 4, 0xFFFFFF bytes)
        // starts with fe + the blob's 8-byte length; frame 762: the real EOF (seq 6) after it.
        List<CapturedPacket> packets = Captures.packets("large-packet.pcapng.gz", Direction.SERVER_TO_CLIENT);
        CapturedPacket row = packets.get(14);
        CapturedPacket eof = packets.get(16);
        assertThat(row.frame()).isEqualTo(399);
        assertThat(row.firstByte()).isEqualTo(0xfe);
        assertThat(row.payload()).hasSize(0xFFFFFF);
        assertThat(eof.frame()).isEqualTo(762);

        assertThat(EofPacket.matches(Unpooled.wrappedBuffer(row.payload()))).isFalse();
        assertThat(EofPacket.matches(Unpooled.wrappedBuffer(eof.payload()))).isTrue();
        assertThat(RoundTrip.exact(eof.payload(), EofPacket::decode, EofPacket::encode))
                .isEqualTo(new EofPacket(0, ServerStatus.AUTOCOMMIT));
        assertThatThrownBy(() -> EofPacket.decode(Unpooled.wrappedBuffer(row.payload())))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("EofPacket: 16777210 bytes after the last field (expected: end of payload)");
    }

    @Test
    void localInfileRequest() {
        // MariaDB 10.11, load-data-local.pcapng frame 10 (seq 1).
        CapturedPacket packet = Captures.inFrame("load-data-local.pcapng", Direction.SERVER_TO_CLIENT, 10);

        LocalInfileRequest request = RoundTrip.exact(packet.payload(), LocalInfileRequest::decode,
                LocalInfileRequest::encode);

        assertThat(request.filename()).isEqualTo("/tmp/cap.csv");
    }
}
