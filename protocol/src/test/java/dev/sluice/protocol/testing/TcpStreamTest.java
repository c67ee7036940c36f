package dev.sluice.protocol.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TcpStreamTest {

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void inOrderSegmentsAreDeliveredAsTheyArrive() {
        TcpStream stream = new TcpStream();
        stream.syn(1000);

        assertThat(stream.add(1001, b("abc"))).isEqualTo(b("abc"));
        assertThat(stream.add(1004, b("de"))).isEqualTo(b("de"));
        assertThat(stream.finish("s")).isEqualTo(b("abcde"));
    }

    @Test
    void outOfOrderSegmentWaitsForTheGapToFill() {
        TcpStream stream = new TcpStream();
        stream.syn(1000);

        assertThat(stream.add(1004, b("de"))).isEmpty();
        assertThat(stream.add(1001, b("abc"))).isEqualTo(b("abcde"));
        assertThat(stream.finish("s")).isEqualTo(b("abcde"));
    }

    @Test
    void retransmissionsAndOverlapsDeliverEachByteOnce() {
        TcpStream stream = new TcpStream();
        stream.syn(1000);

        stream.add(1001, b("abc"));
        assertThat(stream.add(1001, b("abc"))).isEmpty();
        assertThat(stream.add(1002, b("bcdef"))).isEqualTo(b("def"));
        assertThat(stream.add(1006, b("f"))).isEmpty();
        assertThat(stream.finish("s")).isEqualTo(b("abcdef"));
    }

    @Test
    void sequenceNumbersWrapAround() {
        TcpStream stream = new TcpStream();
        stream.syn(0xFFFF_FFFE);

        assertThat(stream.add(0xFFFF_FFFF, b("ab"))).isEqualTo(b("ab"));
        assertThat(stream.add(1, b("c"))).isEqualTo(b("c"));
        assertThat(stream.finish("s")).isEqualTo(b("abc"));
    }

    @Test
    void unfilledGapFailsAndSaysWhere() {
        TcpStream stream = new TcpStream();
        stream.syn(1000);
        stream.add(1001, b("ab"));
        stream.add(1010, b("zz"));

        assertThatThrownBy(() -> stream.finish("conn"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("conn: bytes missing at stream offset 2 (next captured data starts at 9)");
    }
}
