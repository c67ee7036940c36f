package dev.sluice.protocol.packet;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Decodes a payload, checks the decoder read all of it without touching the buffer's reference
 * count, re-encodes the record and checks the bytes are identical. Buffers are direct, like the
 * ones the proxy reads from sockets. Comparisons copy the bytes out in one call: under PARANOID leak
 * detection every single-byte access of a buffer records a stack trace, which a 16 MiB packet
 * turns into minutes.
 */
final class RoundTrip {

    private RoundTrip() {
    }

    static <T> T exact(byte[] payload, Function<ByteBuf, T> decoder, BiConsumer<T, ByteBuf> encoder) {
        ByteBuf in = Unpooled.directBuffer(payload.length).writeBytes(payload);
        ByteBuf out = Unpooled.directBuffer();
        try {
            T decoded = decoder.apply(in);
            assertThat(in.readableBytes()).as("bytes left unread by the decoder").isZero();
            assertThat(in.refCnt()).as("decoder must not retain or release its input").isEqualTo(1);
            encoder.accept(decoded, out);
            assertSameBytes(ByteBufUtil.getBytes(out), payload);
            return decoded;
        } finally {
            in.release();
            out.release();
        }
    }

    static void assertSameBytes(byte[] actual, byte[] expected) {
        int mismatch = Arrays.mismatch(actual, expected);
        if (mismatch >= 0) {
            int from = Math.max(0, mismatch - 8);
            throw new AssertionError("re-encoded payload differs at byte " + mismatch + " (lengths: " + actual.length
                    + " encoded, " + expected.length + " captured); from byte " + from + ": encoded "
                    + window(actual, from) + ", captured " + window(expected, from));
        }
    }

    private static String window(byte[] bytes, int from) {
        int to = Math.min(bytes.length, from + 24);
        return from >= to ? "(end)" : HexFormat.ofDelimiter(" ").formatHex(bytes, from, to);
    }

    /** The bytes an encoder writes, e.g. {@code RoundTrip.encoded(ok::encode)}. */
    static byte[] encoded(Consumer<ByteBuf> encoder) {
        ByteBuf out = Unpooled.directBuffer();
        try {
            encoder.accept(out);
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
    }
}
