package dev.sluice.slap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CaptureJsonTest {

    @Test
    void readsEveryKindOfValue() {
        Object value = CaptureJson.parse(" {\"a\": [1, -2, 3.5, 1e3, 18446744073709551615, true, false, null],"
                + " \"s\": \"q\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\", \"o\": {}, \"e\": []} ");

        assertThat(value).isEqualTo(Map.of(
                "a", Arrays.asList(1L, -2L, 3.5, 1000.0, new BigInteger("18446744073709551615"), true, false, null),
                "s", "q\"\\/\b\f\n\r\té", "o", Map.of(), "e", List.of()));
    }

    @Test
    void mistakesSayWhereAndWhat() {
        assertThatThrownBy(() -> CaptureJson.parse("{\"a\" 1}"))
                .hasMessage("column 6: found '1}' (expected: ':')");
        assertThatThrownBy(() -> CaptureJson.parse("{\"a\": tru}"))
                .hasMessage("column 7: found 'tru}' (expected: a value)");
        assertThatThrownBy(() -> CaptureJson.parse("[1, 2"))
                .hasMessage("column 6: found the end of the line (expected: ']')");
        assertThatThrownBy(() -> CaptureJson.parse("\"abc"))
                .hasMessage("column 5: found the end of the line (expected: the closing quote of a string)");
        assertThatThrownBy(() -> CaptureJson.parse("{} x"))
                .hasMessage("column 4: found 'x' (expected: end of the line)");
        assertThatThrownBy(() -> CaptureJson.parse("-"))
                .hasMessage("column 2: found the end of the line (expected: a digit)");
        assertThatThrownBy(() -> CaptureJson.parse("\"\\x\""))
                .hasMessageStartingWith("column 3: found 'x\"' (expected: one of");
    }
}
