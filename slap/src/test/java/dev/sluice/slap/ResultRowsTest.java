package dev.sluice.slap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ResultRowsTest {

    private static void packet(ByteArrayOutputStream out, int sequence, byte[] payload) {
        out.write(payload.length & 0xFF);
        out.write(payload.length >> 8 & 0xFF);
        out.write(payload.length >> 16 & 0xFF);
        out.write(sequence);
        out.writeBytes(payload);
    }

    private static byte[] filled(int length, int first) {
        byte[] payload = new byte[length];
        Arrays.fill(payload, (byte) 'x');
        if (length > 0) {
            payload[0] = (byte) first;
        }
        return payload;
    }

    /** Hands out at most 7 bytes per read, so headers and payloads straddle the buffer's refills. */
    private static InputStream trickling(byte[] bytes) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] into, int offset, int length) {
                return super.read(into, offset, Math.min(length, 7));
            }
        };
    }

    @Test
    void countsRowsUpToTheEndPacketAndKeepsIt() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        packet(out, 5, new byte[] {3, 'a', 'b', 'c'});
        packet(out, 6, new byte[] {(byte) 0xFB});                       // a NULL column
        packet(out, 7, filled(ResultRows.MAX_PAYLOAD, 0xFD));            // a row of 2^24 bytes and more ...
        packet(out, 8, filled(40, 0xFE));                                // ... whose rest starts 0xFE
        packet(out, 9, new byte[] {1, '1'});
        byte[] ok = {(byte) 0xFE, 0, 0, 0x22, 0, 0, 0};
        packet(out, 10, ok);
        packet(out, 0, new byte[] {1, '2'});                              // the next command's, unread
        ResultRows rows = BufferedReadSocketFactory.reading(new ByteArrayInputStream(out.toByteArray()));

        assertThat(rows.skipRows()).isEqualTo(4);
        assertThat(Arrays.copyOf(rows.packet(), rows.packetLength())).isEqualTo(ok);
    }

    @Test
    void anErrorEndsTheRowsToo() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        packet(out, 1, new byte[] {1, 'a'});
        byte[] error = {(byte) 0xFF, 0x24, 0x05, '#', 'H', 'Y', '0', '0', '0', 'b', 'a', 'd'};
        packet(out, 2, error);
        ResultRows rows = BufferedReadSocketFactory.reading(trickling(out.toByteArray()));

        assertThat(rows.skipRows()).isEqualTo(1);
        assertThat(Arrays.copyOf(rows.packet(), rows.packetLength())).isEqualTo(error);
    }

    @Test
    void aConnectionThatEndsInTheRowsIsAnError() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        packet(out, 1, new byte[] {1, 'a'});
        byte[] cut = Arrays.copyOf(out.toByteArray(), out.size() + 3);
        cut[out.size()] = 20; // a header saying 20 bytes follow, then the stream ends
        ResultRows rows = BufferedReadSocketFactory.reading(trickling(Arrays.copyOf(cut, out.size() + 2)));

        assertThatThrownBy(rows::skipRows).isInstanceOf(EOFException.class);
    }

    @Test
    void keepsTheShortPacketsAndStepsOverTheColumnDefinitions() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        packet(out, 1, new byte[] {2});                                   // two columns
        packet(out, 2, filled(300, 3));                                   // their definitions
        packet(out, 3, filled(45, 3));
        packet(out, 4, new byte[] {(byte) 0xFE, 0, 0, 2, 0});             // EOF
        packet(out, 5, new byte[] {1, '1', 1, '2'});
        byte[] eof = {(byte) 0xFE, 0, 0, 2, 0};
        packet(out, 6, eof);
        ResultRows rows = BufferedReadSocketFactory.reading(trickling(out.toByteArray()));

        rows.readPacket();
        assertThat(Arrays.copyOf(rows.packet(), rows.packetLength())).containsExactly(2);
        rows.skipPackets(3);
        assertThat(rows.skipRows()).isEqualTo(1);
        assertThat(Arrays.copyOf(rows.packet(), rows.packetLength())).isEqualTo(eof);
    }

    @Test
    void aLongPacketWhereOnlyShortOnesBelongIsAnError() {
        byte[] header = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 1};
        ResultRows rows = BufferedReadSocketFactory.reading(new ByteArrayInputStream(header));

        assertThatThrownBy(rows::readPacket).isInstanceOf(IOException.class).hasMessageContaining("16 MiB");
    }
}
