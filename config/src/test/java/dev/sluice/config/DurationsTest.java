package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @ParameterizedTest
    @CsvSource({
        "500ms, PT0.5S, 500ms",
        "10s, PT10S, 10s",
        "5m, PT5M, 5m",
        "1h, PT1H, 1h",
        "8h, PT8H, 8h",
        "2d, PT48H, 2d",
        "30, PT30S, 30s",
        "0, PT0S, 0s",
        "0ms, PT0S, 0s",
        "1h30m, PT1H30M, 1h30m",
        "90s, PT1M30S, 1m30s",
        "1500ms, PT1.5S, 1s500ms",
        "1d2h3m4s5ms, PT26H3M4.005S, 1d2h3m4s5ms",
    })
    void parsesAndFormats(String text, Duration expected, String formatted) {
        assertThat(Durations.parse(text)).isEqualTo(expected);
        assertThat(Durations.format(expected)).isEqualTo(formatted);
        assertThat(Durations.parse(formatted)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "10 s", "10sec", "-5s", "1.5s", "s", "5S", "1h 30m", "5w", "ms", " 5s", "5s "})
    void rejectsWhatIsNotADuration(String text) {
        assertThatThrownBy(() -> Durations.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(Messages.quote(text) + " is not a duration (expected: " + Durations.EXPECTED + ")");
    }

    @Test
    void rejectsOverflowInsteadOfWrapping() {
        String huge = "999999999999d".repeat(200);
        assertThatThrownBy(() -> Durations.parse(huge)).hasMessageContaining("is too long a duration");
        assertThatThrownBy(() -> Durations.parse("9999999999999s")).hasMessageContaining("is not a duration");
    }

    @Test
    void formatsNegativeAndSubMillisecondDurationsReadably() {
        assertThat(Durations.format(Duration.ofSeconds(-5))).isEqualTo("-5s");
        assertThat(Durations.format(Duration.ofNanos(1500))).isEqualTo("PT0.0000015S");
    }

    @Test
    void sizesFollowMysqlSuffixes() {
        assertThat(ByteSizes.parse("1073741824")).isEqualTo(1L << 30);
        assertThat(ByteSizes.parse("1G")).isEqualTo(1L << 30);
        assertThat(ByteSizes.parse("1GiB")).isEqualTo(1L << 30);
        assertThat(ByteSizes.parse("16m")).isEqualTo(16L << 20);
        assertThat(ByteSizes.parse("16MiB")).isEqualTo(16L << 20);
        assertThat(ByteSizes.parse("64k")).isEqualTo(64L << 10);
        assertThat(ByteSizes.parse("1000")).isEqualTo(1000);
        assertThat(ByteSizes.format(1L << 30)).isEqualTo("1G");
        assertThat(ByteSizes.format(3L << 20)).isEqualTo("3M");
        assertThat(ByteSizes.format(2048)).isEqualTo("2K");
        assertThat(ByteSizes.format(1000)).isEqualTo("1000");
        assertThat(ByteSizes.format(0)).isEqualTo("0");
        assertThatThrownBy(() -> ByteSizes.parse("16KB")).hasMessageContaining("\"16KB\" is not a size");
        assertThatThrownBy(() -> ByteSizes.parse("1.5G")).hasMessageContaining("is not a size");
        assertThatThrownBy(() -> ByteSizes.parse("-1")).hasMessageContaining("is not a size");
        assertThatThrownBy(() -> ByteSizes.parse("9999999999999999999G")).hasMessageContaining("is too large");
    }
}
