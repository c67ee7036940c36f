package dev.sluice.slap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTextTest {

    @Test
    void readsEveryKindOfValue() {
        Object value = JsonText.parse(" {\"a\": [1, -2, 3.5, 1e3, 18446744073709551615, true, false, null],"
                + " \"s\": \"q\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\", \"o\": {}, \"e\": []} ");

        assertThat(value).isEqualTo(Map.of(
                "a", Arrays.asList(1L, -2L, 3.5, 1000.0, new BigInteger("18446744073709551615"), true, false, null),
                "s", "q\"\\/\b\f\n\r\té", "o", Map.of(), "e", List.of()));
    }

    @Test
    void mistakesSayWhereAndWhat() {
        assertThatThrownBy(() -> JsonText.parse("{\"a\" 1}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("column 6: Unexpected character ('1'")
                .hasMessageContaining("was expecting a colon");
        assertThatThrownBy(() -> JsonText.parse("{\"a\": tru}")).hasMessageStartingWith("column ")
                .hasMessageContaining("Unrecognized token 'tru'");
        assertThatThrownBy(() -> JsonText.parse("[1, 2")).hasMessageStartingWith("column ")
                .hasMessageContaining("end-of-input");
        assertThatThrownBy(() -> JsonText.parse("{} x")).hasMessageStartingWith("column ")
                .hasMessageContaining("Unrecognized token 'x'");
        assertThatThrownBy(() -> JsonText.parse("\"\\x\"")).hasMessageStartingWith("column ")
                .hasMessageContaining("Unrecognized character escape 'x'");
        assertThatThrownBy(() -> JsonText.parse("")).isInstanceOf(IllegalArgumentException.class);
    }
}
