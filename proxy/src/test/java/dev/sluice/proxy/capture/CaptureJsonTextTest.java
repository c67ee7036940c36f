package dev.sluice.proxy.capture;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** JSON strings and their UTF-8 bytes, as the writer produces them. */
class CaptureJsonTextTest {

    private static String json(String text) {
        StringBuilder out = new StringBuilder();
        Json.string(out, text);
        return out.toString();
    }

    @Test
    void escapesWhatJsonNeedsAndKeepsTheRest() {
        assertThat(json("plain é 日本 😀")).isEqualTo("\"plain é 日本 😀\"");
        assertThat(json("q\"b\\n\nr\rt\tnul\0bell\u0007 ls\u2028")).isEqualTo(
                "\"q\\\"b\\\\n\\nr\\rt\\tnul\\u0000bell\\u0007 ls\\u2028\"");
        assertThat(json("lone \uD800 high, lone \uDC00 low")).isEqualTo("\"lone \\ud800 high, lone \\udc00 low\"");
        assertThat(json(null)).isEqualTo("null");
    }

    @Test
    void utf8MatchesTheJdkAndLoneSurrogatesBecomeQuestionMarks() {
        Utf8Buffer buffer = new Utf8Buffer();
        String text = "a é 日本 😀 " + "x".repeat(10_000);
        buffer.encode(text);
        assertThat(java.util.Arrays.copyOf(buffer.array(), buffer.length()))
                .isEqualTo(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        buffer.encode("a\uD800b");
        assertThat(new String(buffer.array(), 0, buffer.length(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("a?b");
    }
}
