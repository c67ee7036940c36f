package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.Capabilities;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

/**
 * What the checksum of a response covers: what the client was told (columns, rows, affected rows,
 * insert id, error code), not what two runs of one statement may differ in (sequence ids, status
 * flags, warnings, an OK's info), however the bytes are cut.
 */
class ResponseChecksumTest {

    private static final long DEPRECATE_EOF = Capabilities.CLIENT_DEPRECATE_EOF;

    @Test
    void anOkIsItsAffectedRowsAndInsertIdNotItsStatusOrInfo() {
        byte[] ok = packet(1, 0x00, 0x01, 0x2A, 0x02, 0x00, 0x00, 0x00);
        byte[] otherStatus = packet(1, 0x00, 0x01, 0x2A, 0x03, 0x00, 0x01, 0x00, 'h', 'i');
        byte[] otherRows = packet(1, 0x00, 0x02, 0x2A, 0x02, 0x00, 0x00, 0x00);

        assertThat(digest(0, ok)).isEqualTo(digest(0, otherStatus)).isNotEqualTo(digest(0, otherRows));
        ResponseChecksum checksum = new ResponseChecksum(0);
        checksum.update(Unpooled.wrappedBuffer(ok));
        assertThat(checksum.complete()).isTrue();
        assertThat(checksum.insertId()).as("the one OK's insert id").isEqualTo(42);
    }

    @Test
    void anErrIsItsCode() {
        byte[] deadlock = packet(1, 0xFF, 0xC5, 0x04, '#', '4', '0', '0', '0', '1', 'x');
        byte[] otherText = packet(1, 0xFF, 0xC5, 0x04, '#', '4', '0', '0', '0', '1', 'y', 'z');
        byte[] duplicate = packet(1, 0xFF, 0x26, 0x04, '#', '2', '3', '0', '0', '0', 'x');

        assertThat(digest(0, deadlock)).isEqualTo(digest(0, otherText)).isNotEqualTo(digest(0, duplicate));
    }

    @Test
    void aResultSetIsItsColumnsAndRowsWithEofsOrWithout() {
        byte[] withEofs = resultSet(false, "7", 0x0022);
        byte[] otherFlags = resultSet(false, "7", 0x0002);
        byte[] otherRow = resultSet(false, "8", 0x0022);

        assertThat(digest(0, withEofs)).isEqualTo(digest(0, otherFlags)).isNotEqualTo(digest(0, otherRow));
        assertThat(digest(DEPRECATE_EOF, resultSet(true, "7", 0x0022)))
                .isEqualTo(digest(DEPRECATE_EOF, resultSet(true, "7", 0x0002)))
                .isNotEqualTo(digest(DEPRECATE_EOF, resultSet(true, "8", 0x0002)));
        ResponseChecksum checksum = new ResponseChecksum(0);
        checksum.update(Unpooled.wrappedBuffer(withEofs));
        assertThat(checksum.complete()).isTrue();
        assertThat(checksum.insertId()).as("no OK of a statement of its own").isZero();
    }

    @Test
    void bytesCutAnywhereGiveTheSameDigest() {
        byte[] response = resultSet(false, "a row of some length", 0x0002);
        byte[] whole = digest(0, response);
        for (int cut = 1; cut < response.length; cut++) {
            ResponseChecksum checksum = new ResponseChecksum(0);
            checksum.update(Unpooled.wrappedBuffer(response, 0, cut));
            assertThat(checksum.complete()).isFalse();
            checksum.update(Unpooled.wrappedBuffer(response, cut, response.length - cut));
            assertThat(checksum.complete()).as("cut at %d", cut).isTrue();
            assertThat(checksum.finish()).as("cut at %d", cut).isEqualTo(whole);
        }
    }

    @Test
    void twoRowsAreNotOneRowOfBothValues() {
        assertThat(digest(0, rows(false, "ab", "c"))).isNotEqualTo(digest(0, rows(false, "a", "bc")));
    }

    @Test
    void moreResultsAreReadToTheLast() {
        byte[] first = packet(1, 0x00, 0x01, 0x00, 0x08, 0x00, 0x00, 0x00);
        byte[] last = packet(2, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00);
        ResponseChecksum checksum = new ResponseChecksum(0);
        checksum.update(Unpooled.wrappedBuffer(first));
        assertThat(checksum.complete()).as("more results to come").isFalse();
        checksum.update(Unpooled.wrappedBuffer(last));
        assertThat(checksum.complete()).isTrue();
        assertThat(checksum.insertId()).as("two OKs: no statement of its own").isZero();
    }

    @Test
    void aLocalInfileRequestIsSeen() {
        ResponseChecksum checksum = new ResponseChecksum(0);
        checksum.update(Unpooled.wrappedBuffer(packet(1, 0xFB, 'f')));
        assertThat(checksum.localInfile()).isTrue();
    }

    // ---- responses ----

    /** One column, one row holding {@code value}, EOFs (or an OK-as-EOF) with {@code status}. */
    private static byte[] resultSet(boolean deprecateEof, String value, int status) {
        return rows(deprecateEof, status, value);
    }

    private static byte[] rows(boolean deprecateEof, String... values) {
        return rows(deprecateEof, 0x0002, values);
    }

    private static byte[] rows(boolean deprecateEof, int status, String... values) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int seq = 1;
        out.writeBytes(packet(seq++, 0x01));
        out.writeBytes(packet(seq++, 3, 'd', 'e', 'f', 0, 0, 0, 1, 'v', 0, 0x0C, 0x21, 0, 10, 0, 0, 0, 0xFD, 0, 0, 0, 0, 0));
        if (!deprecateEof) {
            out.writeBytes(packet(seq++, 0xFE, 0, 0, status & 0xFF, status >> 8));
        }
        for (String value : values) {
            byte[] row = new byte[value.length() + 1];
            row[0] = (byte) value.length();
            for (int i = 0; i < value.length(); i++) {
                row[i + 1] = (byte) value.charAt(i);
            }
            out.writeBytes(packet(seq++, row));
        }
        out.writeBytes(deprecateEof ? packet(seq, 0xFE, 0, 0, status & 0xFF, status >> 8, 0, 0)
                : packet(seq, 0xFE, 0, 0, status & 0xFF, status >> 8));
        return out.toByteArray();
    }

    private static byte[] packet(int sequenceId, int... payload) {
        byte[] bytes = new byte[payload.length];
        for (int i = 0; i < payload.length; i++) {
            bytes[i] = (byte) payload[i];
        }
        return packet(sequenceId, bytes);
    }

    private static byte[] packet(int sequenceId, byte[] payload) {
        byte[] framed = new byte[payload.length + 4];
        framed[0] = (byte) payload.length;
        framed[1] = (byte) (payload.length >> 8);
        framed[2] = (byte) (payload.length >> 16);
        framed[3] = (byte) sequenceId;
        System.arraycopy(payload, 0, framed, 4, payload.length);
        return framed;
    }

    private static byte[] digest(long capabilities, byte[] response) {
        ResponseChecksum checksum = new ResponseChecksum(capabilities);
        ByteBuf bytes = Unpooled.wrappedBuffer(response);
        checksum.update(bytes);
        assertThat(checksum.complete()).isTrue();
        return checksum.finish();
    }
}
