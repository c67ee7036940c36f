package dev.sluice.slap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CaptureFileReadTest {

    static final String QUERY = "{\"time\":\"2025-06-01T10:00:00.000250Z\",\"session\":7,\"user\":\"app\","
            + "\"client\":\"127.0.0.1:5000\",\"schema\":\"shop\",\"backend\":\"primary\",\"command\":\"Query\","
            + "\"sql\":\"SELECT 1\",\"digest\":\"00000000000000AB\",\"digest_text\":\"SELECT ?\",\"duration_us\":120,"
            + "\"rows_sent\":1,\"rows_affected\":0,\"error\":0,\"bytes_in\":13}";

    @TempDir
    Path dir;

    @Test
    void readsEveryField() throws Exception {
        Path file = Files.writeString(dir.resolve("c.jsonl"), QUERY + "\n\n" + QUERY.replace("\"command\":\"Query\"",
                "\"command\":\"Execute\",\"statement_id\":3").replace("\"bytes_in\":13",
                "\"bytes_in\":13,\"params\":[1,{\"decimal\":\"2.5\"}],\"truncated\":true,\"session_state\":"
                        + "{\"login\":false,\"collation_id\":8,\"variables\":{\"time_zone\":\"+02:00\"}}") + "\n");

        List<CapturedEvent> events = CaptureFile.read(file);

        assertThat(events).containsExactly(
                new CapturedEvent(1748772000000250L, 7, "app", "127.0.0.1:5000", "shop", "primary", "Query", -1, "SELECT 1",
                        "00000000000000AB", "SELECT ?", null, null, 120, 1, 0, 0, 13, false, null),
                new CapturedEvent(1748772000000250L, 7, "app", "127.0.0.1:5000", "shop", "primary", "Execute", 3,
                        "SELECT 1", "00000000000000AB", "SELECT ?", List.of(1L, Map.of("decimal", "2.5")), null, 120, 1,
                        0, 0, 13, true, new CapturedSessionState(false, 8, Map.of("time_zone", "+02:00"))));
        assertThat(events.get(0).digestKey()).isEqualTo("00000000000000AB");
    }

    @Test
    void aSlowLogOrABadLineIsNamedWithItsLine() throws Exception {
        Path slow = Files.writeString(dir.resolve("slow.log"), "/usr/sbin/mariadbd, Version: x. started with:\n");
        assertThatThrownBy(() -> CaptureFile.read(slow)).hasMessage(slow + ":1: not a JSON object (this looks like a"
                + " slow log: read it with pt-query-digest or mysqldumpslow; replay and digest need a capture in format jsonl)");
        Path missing = Files.writeString(dir.resolve("m.jsonl"), QUERY + "\n" + QUERY.replace("\"session\":7,", "") + "\n");
        assertThatThrownBy(() -> CaptureFile.read(missing)).hasMessageStartingWith(missing + ":2: no \"session\" field");
        Path badTime = Files.writeString(dir.resolve("t.jsonl"), QUERY.replace("2025-06-01T10", "yesterday") + "\n");
        assertThatThrownBy(() -> CaptureFile.read(badTime)).hasMessageContaining(":1: \"time\": \"yesterday");
        assertThatThrownBy(() -> CaptureFile.read(dir.resolve("none.jsonl"))).hasMessage(dir.resolve("none.jsonl")
                + ": no such file");
        Path badState = Files.writeString(dir.resolve("s.jsonl"), QUERY.replace("\"bytes_in\":13",
                "\"bytes_in\":13,\"session_state\":{\"login\":true,\"variables\":{\"a\":1}}") + "\n");
        assertThatThrownBy(() -> CaptureFile.read(badState)).hasMessage(badState + ":1: \"session_state\".\"variables\":"
                + " found {a=1} (expected: an object of names and text values, or null)");
    }
}
