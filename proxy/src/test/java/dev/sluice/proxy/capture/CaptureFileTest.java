package dev.sluice.proxy.capture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.CaptureConfig;
import dev.sluice.protocol.Commands;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What reaches the file for each kind of command, in both formats, and what never does. */
class CaptureFileTest {

    @TempDir
    Path dir;

    private CaptureHarness jsonl() {
        return new CaptureHarness(CaptureConfig.jsonl(dir.resolve("capture.jsonl")));
    }

    private CaptureHarness slowlog() {
        return new CaptureHarness(CaptureConfig.jsonl(dir.resolve("slow.log")).withFormat(CaptureConfig.Format.SLOWLOG));
    }

    /** A prepare, two executes (types sent with the first only), a close. */
    private static void preparedStatement(CaptureHarness capture, TestSession session) {
        capture.run(session, Frames.prepare("SELECT c FROM t WHERE id = ? AND k = ?"), Frames.prepareOk(7, 2), 40);
        capture.run(session, Frames.execute(7, true, 42L, "it's"), Frames.rows(1), 120);
        capture.run(session, Frames.execute(7, false, -5L, null), Frames.rows(0), 80);
        capture.noResponse(session, Frames.close(7));
    }

    @Test
    void aQueryHasEveryField() throws Exception {
        CaptureHarness capture = jsonl();
        capture.run(new TestSession(12, "app", "shop"), Frames.query("SELECT *\tFROM t WHERE a = 'x\"y' -- note\n"),
                Frames.rows(3), 1500);

        List<String> lines = capture.finish();

        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).matches("\\{\"time\":\"20\\d\\d-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z\",\"session\":12,"
                + "\"user\":\"app\",\"client\":\"127\\.0\\.0\\.1:40012\",\"schema\":\"shop\",\"backend\":\"primary\","
                + "\"command\":\"Query\",\"sql\":\"SELECT \\*\\\\tFROM t WHERE a = 'x\\\\\"y' -- note\\\\n\","
                + "\"digest\":\"[0-9A-F]{16}\",\"digest_text\":\"SELECT \\* FROM t WHERE a = \\?\",\"duration_us\":1500,"
                + "\"rows_sent\":3,\"rows_affected\":0,\"error\":0,\"bytes_in\":\\d+,\"bytes_out\":100,"
                + "\"session_state\":\\{\"login\":false,\"variables\":null}}");
    }

    @Test
    void aSessionsFirstLineSaysHowToOpenItAgain() throws Exception {
        CaptureHarness capture = jsonl();
        TestSession fresh = new TestSession(1, "app", "shop").login(8, java.util.Map.of());
        capture.start(fresh);
        capture.run(fresh, Frames.query("SET sql_mode = 'ANSI_QUOTES'"), Frames.ok(0), 50);
        fresh.login(8, java.util.Map.of("sql_mode", "ANSI_QUOTES"));
        capture.run(fresh, Frames.query("SELECT 1"), Frames.rows(1), 50);
        // Already running when capture began: what it had set comes with its first line.
        TestSession running = new TestSession(2, "app", "shop").login(45, java.util.Map.of("time_zone", "+02:00",
                "sql_mode", "it's \"quoted\""));
        capture.run(running, Frames.query("SELECT 2"), Frames.rows(1), 50);
        TestSession passThrough = new TestSession(3, null, "shop");
        capture.run(passThrough, Frames.query("SELECT 3"), Frames.rows(1), 50);

        List<String> lines = capture.finish();

        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).endsWith(",\"session_state\":{\"login\":true,\"collation_id\":8,\"variables\":{}}}");
        assertThat(lines.get(1)).doesNotContain("session_state");
        assertThat(lines.get(2)).endsWith(",\"session_state\":{\"login\":false,\"collation_id\":45,"
                + "\"variables\":{\"sql_mode\":\"it's \\\"quoted\\\"\",\"time_zone\":\"+02:00\"}}}");
        assertThat(lines.get(3)).endsWith(",\"session_state\":{\"login\":false,\"variables\":null}}");
    }

    @Test
    void preparedStatementsCarryTextAndValues() throws Exception {
        CaptureHarness capture = jsonl();
        preparedStatement(capture, new TestSession(3, "app", "shop"));

        List<String> lines = capture.finish();

        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).contains("\"command\":\"Prepare\",\"statement_id\":7,"
                + "\"sql\":\"SELECT c FROM t WHERE id = ? AND k = ?\"").doesNotContain("\"params\"");
        assertThat(lines.get(1)).contains("\"command\":\"Execute\",\"statement_id\":7,", "\"params\":[42,\"it's\"]",
                "\"duration_us\":120,\"rows_sent\":1");
        assertThat(lines.get(2)).contains("\"params\":[-5,null]");
        assertThat(lines.get(3)).contains("\"command\":\"Close stmt\",\"statement_id\":7,",
                "\"sql\":\"SELECT c FROM t WHERE id = ? AND k = ?\"");
        // Every statement of one digest, whatever the command.
        assertThat(lines).allSatisfy(line -> assertThat(line).contains("\"digest_text\":\"SELECT c FROM t WHERE id = ? AND k = ?\""));
    }

    @Test
    void theSlowLogShowsExecutesWithTheirValuesAndNoClose() throws Exception {
        CaptureHarness capture = slowlog();
        TestSession session = new TestSession(3, "app", "shop");
        capture.run(session, Frames.query("SELECT 1"), Frames.rows(1), 2_500_000);
        preparedStatement(capture, session);
        capture.run(session, Frames.frame(Commands.COM_PING, new byte[0]), Frames.ok(0), 10);

        String log = String.join("\n", capture.finish()) + "\n";

        assertThat(log).startsWith("/usr/sbin/mariadbd, Version: sluice capture (slow query log format). started with:\n"
                + "Tcp port: 0  Unix socket: (none)\nTime                 Id Command    Argument\n# Time: ");
        assertThat(log).containsOnlyOnce("use `shop`;\n");
        assertThat(log).contains("# User@Host: app[app] @ 127.0.0.1 [127.0.0.1]\n# Thread_id: 3  Schema: shop  QC_hit: No\n"
                + "# Query_time: 2.500000  Lock_time: 0.000000  Rows_sent: 1  Rows_examined: 0\n"
                + "# Rows_affected: 0  Bytes_sent: 100  Last_errno: 0  Backend: primary\n");
        assertThat(log).contains("SELECT 1;\n", "# administrator command: Prepare;\n",
                "SELECT c FROM t WHERE id = 42 AND k = 'it\\'s';\n", "SELECT c FROM t WHERE id = -5 AND k = NULL;\n",
                "# administrator command: Ping;\n").doesNotContain("Close stmt");
        // mysqldumpslow splits entries at ";\n#": nothing ending in ";" may precede an administrator command.
        assertThat(log).doesNotContainPattern(";\n# administrator");
        // The banner, then five entries: the query, the prepare, two executes, the ping.
        assertThat(log.split("\n# Time: ")).hasSize(6);
    }

    @Test
    void passwordsNeverReachTheFile() throws Exception {
        for (CaptureHarness capture : List.of(jsonl(), slowlog())) {
            TestSession session = new TestSession(5, "admin", null);
            capture.run(session, Frames.query("CREATE USER 'u'@'%' IDENTIFIED BY 'secret-1'"), Frames.ok(0), 100);
            capture.run(session, Frames.query("ALTER USER u IDENTIFIED BY 'secret-2'"), Frames.ok(0), 100);
            capture.run(session, Frames.query("SET PASSWORD FOR u = PASSWORD('secret-3')"), Frames.ok(0), 100);
            capture.run(session, Frames.query("GRANT ALL ON *.* TO u IDENTIFIED BY 'secret-4'"), Frames.ok(0), 100);
            capture.run(session, Frames.query("CHANGE MASTER TO MASTER_HOST='h', MASTER_PASSWORD='secret-5'"),
                    Frames.error(1227), 100);
            capture.run(session, Frames.prepare("SET PASSWORD FOR u = PASSWORD(?)"), Frames.prepareOk(1, 2), 50);
            capture.run(session, Frames.execute(1, true, 1L, "secret-6"), Frames.ok(0), 50);
            // A statement that mentions a password keeps none of its values, whatever the column.
            capture.run(session, Frames.prepare("SELECT ? FROM users WHERE password = ?"), Frames.prepareOk(2, 2), 50);
            capture.run(session, Frames.execute(2, true, 1L, "secret-8"), Frames.ok(0), 50);
            capture.run(session, Frames.prepare("SELECT ? FROM users WHERE name = ?"), Frames.prepareOk(3, 2), 50);
            capture.run(session, Frames.execute(3, true, 1L, "kept"), Frames.ok(0), 50);
            capture.run(session, Frames.frame(Commands.COM_CHANGE_USER,
                    "other\0\u0014secret-7-scramble\0".getBytes(StandardCharsets.UTF_8)), Frames.ok(0), 50);

            String file = String.join("\n", capture.finish());

            assertThat(file).doesNotContain("secret").contains("'***'", "kept");
            if (file.startsWith("{")) {
                assertThat(file).contains("\"params\":null,\"params_problem\":\"redacted: the statement carries a password\"",
                        "\"command\":\"Change user\",\"sql\":null");
            }
        }
    }

    @Test
    void sqlDigestKeepsOnlyNormalizedTextAndNoneOnlyTheHash() throws Exception {
        CaptureHarness digest = new CaptureHarness(CaptureConfig.jsonl(dir.resolve("d.jsonl"))
                .withSql(CaptureConfig.SqlText.DIGEST));
        digest.run(new TestSession(1, "app", null), Frames.query("SELECT * FROM t WHERE card = '4111-1111'"),
                Frames.rows(1), 10);
        CaptureHarness none = new CaptureHarness(CaptureConfig.jsonl(dir.resolve("n.jsonl"))
                .withSql(CaptureConfig.SqlText.NONE));
        none.run(new TestSession(1, "app", null), Frames.query("SELECT * FROM t WHERE card = '4111-1111'"),
                Frames.rows(1), 10);

        assertThat(digest.finish()).singleElement().asString().doesNotContain("4111")
                .contains("\"sql\":null", "\"digest_text\":\"SELECT * FROM t WHERE card = ?\"");
        assertThat(none.finish()).singleElement().asString().doesNotContain("4111", "SELECT")
                .contains("\"sql\":null", "\"digest_text\":null").containsPattern("\"digest\":\"[0-9A-F]{16}\"");
    }

    @Test
    void anExecuteOfAStatementPreparedBeforeCaptureSaysSo() throws Exception {
        CaptureHarness capture = jsonl();
        TestSession session = new TestSession(9, "app", null);
        capture.run(session, Frames.execute(4, false, 1L, "x"), Frames.rows(1), 10);
        capture.run(session, Frames.prepare("SELECT ?, ?"), Frames.prepareOk(5, 2), 10);
        capture.run(session, Frames.execute(5, false, 1L, "x"), Frames.rows(1), 10);

        List<String> lines = capture.finish();

        assertThat(lines.get(0)).contains("\"command\":\"Execute\",\"statement_id\":4,\"sql\":null",
                "\"params\":null,\"params_problem\":\"capture does not know this prepared statement");
        assertThat(lines.get(2)).contains("\"params\":null,\"params_problem\":\"parameter types were sent before"
                + " capture saw the statement\"");
    }

    @Test
    void withoutTheClientsStatementIdsExecutesAreNotPairedWithPrepares() throws Exception {
        CaptureHarness capture = new CaptureHarness(CaptureConfig.jsonl(dir.resolve("split.jsonl")), false);
        preparedStatement(capture, new TestSession(3, "app", "shop"));

        List<String> lines = capture.finish();

        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).contains("\"command\":\"Prepare\",\"sql\":\"SELECT c FROM t WHERE id = ? AND k = ?\"")
                .doesNotContain("statement_id");
        assertThat(lines.subList(1, 4)).allSatisfy(line -> assertThat(line).contains("\"sql\":null")
                .doesNotContain("statement_id", "[42,"));
    }
}
