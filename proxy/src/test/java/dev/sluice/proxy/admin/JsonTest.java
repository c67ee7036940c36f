package dev.sluice.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    /** A reader configured apart from the writer: what the API's clients get. */
    static final ObjectMapper READER = JsonMapper.builder().enable(DeserializationFeature.USE_LONG_FOR_INTS).build();

    static Object parse(String text) throws Exception {
        return READER.readValue(text, Object.class);
    }

    @Test
    void writesWhatAJsonParserReadsBack() throws Exception {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("name", "a \"quoted\"\\ név\n\u0001");
        value.put("count", 42L);
        value.put("ratio", 0.5);
        value.put("nan", Double.NaN);
        value.put("infinite", Double.NEGATIVE_INFINITY);
        value.put("ok", true);
        value.put("none", null);
        value.put("list", List.of(1L, "two", Map.of()));
        String text = Json.write(value);
        assertThat(text).startsWith("{\"name\":\"a \\\"quoted\\\"\\\\ név\\n\\u0001\",\"count\":42,\"ratio\":0.5,\"nan\":null,\"infinite\":null");
        Map<String, Object> expected = new LinkedHashMap<>(value);
        expected.put("nan", null);
        expected.put("infinite", null);
        assertThat(parse(text)).isEqualTo(expected);
    }

    @Test
    void tablesBecomeArraysOfObjects() {
        Table table = new Table.Builder("t").text("a").integer("b").row("x", 1).row(null, 2).build();
        assertThat(Json.write(Json.rows(table))).isEqualTo("[{\"a\":\"x\",\"b\":1},{\"a\":null,\"b\":2}]");
    }

    @Test
    void shortenCutsLongTextsWithoutSplittingASurrogatePair() {
        assertThat(Json.shorten("SELECT 1", 8)).isEqualTo("SELECT 1");
        assertThat(Json.shorten("SELECT 12", 8)).isEqualTo("SELEC...");
        String emoji = "\uD83D\uDE00";
        String cut = Json.shorten("abcd" + emoji + "efgh", 8);
        assertThat(cut).isEqualTo("abcd...");
        assertThat(Json.shorten("abc" + emoji + "efgh", 8)).isEqualTo("abc" + emoji + "...");
    }
}
