package dev.sluice.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void writesAndReadsBack() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("name", "a \"quoted\"\\ név\n\u0001");
        value.put("count", 42L);
        value.put("ratio", 0.5);
        value.put("nan", Double.NaN);
        value.put("ok", true);
        value.put("none", null);
        value.put("list", List.of(1L, "two", Map.of()));
        String text = Json.write(value);
        assertThat(text).startsWith("{\"name\":\"a \\\"quoted\\\"\\\\ név\\n\\u0001\",\"count\":42,\"ratio\":0.5,\"nan\":null");
        Map<String, Object> expected = new LinkedHashMap<>(value);
        expected.put("nan", null);
        assertThat(Json.parse(text)).isEqualTo(expected);
        assertThat(Json.parse(" [ -1.5e3 , \"\\u00e9\" ] ")).isEqualTo(List.of(-1500.0, "é"));
    }

    @Test
    void tablesBecomeArraysOfObjects() {
        Table table = new Table.Builder("t").text("a").integer("b").row("x", 1).row(null, 2).build();
        assertThat(Json.write(Json.rows(table))).isEqualTo("[{\"a\":\"x\",\"b\":1},{\"a\":null,\"b\":2}]");
    }

    @Test
    void badJsonSaysWhereAndWhat() {
        assertThatThrownBy(() -> Json.parse("{\"a\" 1}")).hasMessage("JSON: found '1' at offset 5 (expected: ':')");
        assertThatThrownBy(() -> Json.parse("[1,")).hasMessageContaining("found the end");
        assertThatThrownBy(() -> Json.parse("1 2")).hasMessageContaining("(expected: the end)");
    }
}
