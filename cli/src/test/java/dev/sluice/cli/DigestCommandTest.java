package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class DigestCommandTest {

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {
    }

    static Run sluice(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine line = new CommandLine(new Main());
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));
        int exit = line.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private static String line(long session, String command, String sql, String digest, String text, long micros,
                               long rows, String backend, int error) {
        return "{\"time\":\"2025-06-01T10:00:00.000000Z\",\"session\":" + session + ",\"user\":\"app\","
                + "\"client\":\"127.0.0.1:1\",\"schema\":\"shop\",\"backend\":\"" + backend + "\",\"command\":\""
                + command + "\",\"sql\":" + (sql == null ? "null" : "\"" + sql + "\"") + ",\"digest\":"
                + (digest == null ? "null" : "\"" + digest + "\"") + ",\"digest_text\":"
                + (text == null ? "null" : "\"" + text + "\"") + ",\"duration_us\":" + micros + ",\"rows_sent\":" + rows
                + ",\"rows_affected\":0,\"error\":" + error + ",\"bytes_in\":10}";
    }

    @Test
    void ranksStatementsByTotalTimeWithTheirFigures() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            lines.add(line(1, "Query", "SELECT c FROM t WHERE id=" + i, "00000000000000AA", "SELECT c FROM t WHERE id = ?",
                    i * 10, 1, i % 4 == 0 ? "replica1" : "primary", 0));
        }
        for (int i = 1; i <= 3; i++) {
            lines.add(line(2, "Execute", "UPDATE t SET k=k+1 WHERE id=?", "00000000000000BB", "UPDATE t SET k = k + ? WHERE id = ?",
                    100_000, 0, "primary", i == 3 ? 1213 : 0));
        }
        lines.add(line(2, "Prepare", "UPDATE t SET k=k+1 WHERE id=?", "00000000000000BB", "UPDATE t SET k = k + ? WHERE id = ?",
                50, 0, "primary", 0));
        lines.add(line(2, "Ping", null, null, null, 20, 0, "primary", 0));
        Path file = Files.write(dir.resolve("c.jsonl"), lines);

        Run run = sluice("digest", file.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        String out = run.out();
        assertThat(out).contains("# 105 statements, 4 digests, 0.351 s in statements");
        assertThat(out).containsPattern("#    1 0x00000000000000BB +0\\.3000 +85\\.6% +3 +100\\.000 +100\\.0\\d\\d +100\\.0\\d\\d +0  UPDATE");
        assertThat(out).containsPattern("#    2 0x00000000000000AA +0\\.0505 +14\\.4% +100 +0\\.505 +0\\.950 +1\\.000 +100  SELECT c FROM t");
        assertThat(out).containsPattern("#    3 Prepare +0\\.0001 .* administrator command: Prepare");
        assertThat(out).contains("# Backends: primary 75 (75.0%), replica1 25 (25.0%)", "# Errors:   1",
                "# Example (the slowest, 1.000 ms, session 1, 2025-06-01T10:00:00Z):\nSELECT c FROM t WHERE id=100;");
        assertThat(sluice("digest", "--limit", "1", file.toString()).out()).contains("# MISC 0xMISC", "<3 more digests>")
                .doesNotContain("# Query 2:");
    }

    @Test
    void aFileThatIsNotACaptureIsNamed() throws Exception {
        Path slow = Files.writeString(dir.resolve("slow.log"), "# Time: 250601 10:00:00\n");

        Run run = sluice("digest", slow.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("sluice digest: " + slow + ":1: not a JSON object (this looks like a slow log");
    }
}
