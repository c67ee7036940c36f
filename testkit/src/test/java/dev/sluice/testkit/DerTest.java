package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.time.Instant;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class DerTest {

    private static String hex(byte[] bytes) {
        return HexFormat.ofDelimiter(" ").formatHex(bytes);
    }

    @Test
    void encodesTheSha256WithRsaObjectIdentifier() {
        // 06 = OBJECT IDENTIFIER, 09 = length; 2A = 1*40+2; 86 48 = 840; 86 F7 0D = 113549; 01 01 0B
        assertThat(hex(Der.objectIdentifier("1.2.840.113549.1.1.11")))
                .isEqualTo("06 09 2a 86 48 86 f7 0d 01 01 0b");
    }

    @Test
    void encodesTheCommonNameObjectIdentifier() {
        assertThat(hex(Der.objectIdentifier("2.5.4.3"))).isEqualTo("06 03 55 04 03");
    }

    @Test
    void rejectsAnObjectIdentifierWithOneArc() {
        assertThatThrownBy(() -> Der.objectIdentifier("2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("object identifier: '2' (expected: at least two arcs)");
    }

    @Test
    void usesTheShortLengthFormBelow128Bytes() {
        byte[] encoded = Der.sequence(new byte[127]);
        assertThat(encoded).hasSize(2 + 127);
        assertThat(hex(encoded).substring(0, 5)).isEqualTo("30 7f");
    }

    @Test
    void usesTheLongLengthFormFrom128Bytes() {
        // 0x81 = one length byte follows; 0x80 = 128
        assertThat(hex(Der.sequence(new byte[128])).substring(0, 8)).isEqualTo("30 81 80");
        // 0x82 = two length bytes follow; 0x01 0x2C = 300
        assertThat(hex(Der.set(new byte[300])).substring(0, 11)).isEqualTo("31 82 01 2c");
    }

    @Test
    void keepsALeadingZeroSoAHighBitIntegerStaysPositive() {
        assertThat(hex(Der.integer(BigInteger.valueOf(128)))).isEqualTo("02 02 00 80");
        assertThat(hex(Der.integer(BigInteger.TWO))).isEqualTo("02 01 02");
    }

    @Test
    void prefixesABitStringWithZeroUnusedBits() {
        assertThat(hex(Der.bitString(new byte[] {(byte) 0xAB}))).isEqualTo("03 02 00 ab");
    }

    @Test
    void encodesNullUtf8AndExplicitTags() {
        assertThat(hex(Der.nullValue())).isEqualTo("05 00");
        assertThat(hex(Der.utf8String("é"))).isEqualTo("0c 02 c3 a9");
        assertThat(hex(Der.explicit(0, Der.integer(BigInteger.TWO)))).isEqualTo("a0 03 02 01 02");
    }

    @Test
    void writesUtcTimeBefore2050AndGeneralizedTimeFrom2050() {
        // 17 = UTCTime, 0d = 13 chars: "260102030405Z"
        assertThat(new String(Der.time(Instant.parse("2026-01-02T03:04:05Z")), 2, 13, java.nio.charset.StandardCharsets.US_ASCII))
                .isEqualTo("260102030405Z");
        assertThat(Der.time(Instant.parse("2026-01-02T03:04:05Z"))[0]).isEqualTo((byte) 0x17);
        // 18 = GeneralizedTime, 0f = 15 chars: "20500102030405Z"
        byte[] late = Der.time(Instant.parse("2050-01-02T03:04:05Z"));
        assertThat(hex(late).substring(0, 5)).isEqualTo("18 0f");
        assertThat(new String(late, 2, 15, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("20500102030405Z");
    }
}
