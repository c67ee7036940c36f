package dev.sluice.slap;

import static dev.sluice.slap.SlapRunner.deltas;
import static dev.sluice.slap.SlapRunner.slap;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * slap --replay of a hand-written capture against a real server: every captured command runs as
 * what it was (prepared statements as server-side ones, with their values), the server counts
 * exactly those, and the report compares captured and replayed per statement.
 */
@ExtendWith(SlapServerExtension.class)
class ReplayIT {

    private static final String[] COUNTERS = {"Com_stmt_prepare", "Com_stmt_execute", "Com_stmt_close", "Com_create_table",
            "Com_drop_table", "Com_select", "Com_change_db"};
    private static final Pattern ELAPSED = Pattern.compile("statements in ([0-9.]+) s");

    @TempDir
    Path dir;

    @BeforeAll
    static void warmUp(MariaDbServer server) {
        SlapRunner.warmUp(server);
    }

    /** One capture line; {@code extra} goes before duration_us (statement_id, params). */
    private static String line(long millis, long session, String command, String sql, String extra, int error) {
        String time = java.time.Instant.ofEpochMilli(1_748_772_000_000L + millis).toString();
        return "{\"time\":\"" + time + "\",\"session\":" + session + ",\"user\":\"app\",\"client\":\"127.0.0.1:1\","
                + "\"schema\":\"" + TestUsers.TEST_SCHEMA + "\",\"backend\":\"primary\",\"command\":\"" + command + "\","
                + (extra.isEmpty() ? "" : extra + ",") + "\"sql\":" + (sql == null ? "null" : "\"" + sql + "\"")
                + ",\"digest\":null,\"digest_text\":null,\"duration_us\":100,\"rows_sent\":0,\"rows_affected\":0,"
                + "\"error\":" + error + ",\"bytes_in\":10}";
    }

    private Path capture(List<String> lines) throws Exception {
        return Files.write(dir.resolve("capture.jsonl"), lines);
    }

    @Test
    void everyCommandReplaysAsWhatItWas(MariaDbServer server) throws Exception {
        List<String> lines = new ArrayList<>();
        lines.add(line(0, 1, "Query", "DROP TABLE IF EXISTS replay_items", "", 0));
        lines.add(line(1, 1, "Query", "CREATE TABLE replay_items (id INT PRIMARY KEY, v VARCHAR(20), d DECIMAL(6,2),"
                + " at DATETIME(6), b BLOB, n INT)", "", 0));
        lines.add(line(2, 1, "Prepare", "INSERT INTO replay_items VALUES (?, ?, ?, ?, ?, ?)", "\"statement_id\":1", 0));
        lines.add(line(3, 1, "Execute", "INSERT INTO replay_items VALUES (?, ?, ?, ?, ?, ?)", "\"statement_id\":1,"
                + "\"params\":[1,\"it's \\u00e9\",{\"decimal\":\"1.50\"},{\"datetime\":\"2024-02-29 13:14:15.123456\"},"
                + "{\"base64\":\"AAH/\"},null]", 0));
        lines.add(line(4, 1, "Execute", "INSERT INTO replay_items VALUES (?, ?, ?, ?, ?, ?)", "\"statement_id\":1,"
                + "\"params\":[2,\"b\",{\"decimal\":\"-3.25\"},{\"datetime\":\"2025-01-01 00:00:00.000000\"},"
                + "{\"base64\":\"\"},7]", 0));
        lines.add(line(5, 1, "Close stmt", "INSERT INTO replay_items VALUES (?, ?, ?, ?, ?, ?)", "\"statement_id\":1", 0));
        lines.add(line(6, 1, "Ping", null, "", 0));
        lines.add(line(7, 1, "Change user", null, "", 0));
        lines.add(line(508, 2, "Prepare", "SELECT v FROM replay_items WHERE id = ?", "\"statement_id\":1", 0));
        lines.add(line(509, 2, "Execute", "SELECT v FROM replay_items WHERE id = ?", "\"statement_id\":1,\"params\":[1]", 0));
        lines.add(line(510, 2, "Query", "SELECT * FROM replay_no_such_table", "", 1146));
        lines.add(line(511, 2, "Init DB", TestUsers.TEST_SCHEMA, "", 0));
        lines.add(line(512, 2, "Close stmt", "SELECT v FROM replay_items WHERE id = ?", "\"statement_id\":1", 0));
        lines.add(line(513, 2, "Execute", "SELECT 1", "\"statement_id\":9,\"params\":[]", 0));
        Path file = capture(lines);

        SlapCommandTest.Run[] run = new SlapCommandTest.Run[1];
        // At speed 1 session 2 starts half a second in, after session 1 made the table.
        Map<String, Long> grown = deltas(server, () -> run[0] = slap(server, "--replay", file.toString()), COUNTERS);

        assertThat(run[0].exit()).as(run[0].err()).isZero();
        assertThat(grown).containsEntry("Com_stmt_prepare", 2L).containsEntry("Com_stmt_execute", 3L)
                .containsEntry("Com_stmt_close", 2L).containsEntry("Com_create_table", 1L).containsEntry("Com_drop_table", 1L)
                .containsEntry("Com_change_db", 1L);
        try (Connection c = server.openAdmin(); Statement s = c.createStatement();
             ResultSet rows = s.executeQuery("SELECT id, v, d, at, HEX(b), n FROM " + TestUsers.TEST_SCHEMA
                     + ".replay_items ORDER BY id")) {
            assertThat(rows.next()).isTrue();
            assertThat(List.of(rows.getString(2), rows.getString(3), rows.getString(4), rows.getString(5)))
                    .containsExactly("it's é", "1.50", "2024-02-29 13:14:15.123456", "0001FF");
            assertThat(rows.getObject(6)).isNull();
            assertThat(rows.next()).isTrue();
            assertThat(List.of(rows.getString(3), rows.getString(5), rows.getString(6))).containsExactly("-3.25", "", "7");
        }
        String out = run[0].out();
        System.out.println(out);
        assertThat(out).contains("2 sessions, 14 statements", "12 replayed, 2 not replayed; 1 errors (the capture had 1)");
        assertThat(out).containsPattern("Execute +- +4 +3 .*INSERT INTO replay_items");
        assertThat(out).contains("Change user: needs the session's password, which is never captured",
                "Execute: prepared before the capture started", "1146 ", "doesn't exist");
    }

    /**
     * Each session opens as the capture says it was: as its user through --user-map, with its
     * login's collation and the variables it had set; one the map does not name runs as -u, and a
     * session of a capture older than session_state opens with the server's defaults: both said.
     */
    @Test
    void sessionsOpenAsTheyWereCaptured(MariaDbServer server) throws Exception {
        String table = TestUsers.TEST_SCHEMA + ".replay_fidelity";
        try (Connection c = server.openAdmin(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + table);
            s.execute("CREATE TABLE " + table + " (session INT, who VARCHAR(100), tz VARCHAR(20), mode VARCHAR(200),"
                    + " collation VARCHAR(64))");
        }
        String record = "INSERT INTO replay_fidelity SELECT %d, CURRENT_USER(), @@time_zone, @@sql_mode, @@collation_connection";
        String state = ",\"session_state\":{\"login\":false,\"collation_id\":8,\"variables\":{\"time_zone\":\"+03:00\","
                + "\"sql_mode\":\"ANSI_QUOTES\",\"character_set_results\":\"\"}}";
        List<String> lines = List.of(
                line(0, 1, "Query", record.formatted(1), "", 0).replace("\"user\":\"app\"", "\"user\":\"billing\"")
                        .replace("\"bytes_in\":10}", "\"bytes_in\":10" + state + "}"),
                line(1, 2, "Query", record.formatted(2), "", 0).replace("\"user\":\"app\"", "\"user\":\"nobody\""));
        Path file = capture(lines);
        Path users = Files.writeString(dir.resolve("users"), "billing " + TestUsers.APP2_USER + ":"
                + TestUsers.APP2_PASSWORD + "\n");

        SlapCommandTest.Run run = slap(server, "--replay", file.toString(), "--speed=max", "--user-map=" + users);

        assertThat(run.exit()).as(run.err()).isZero();
        try (Connection c = server.openAdmin(); Statement s = c.createStatement();
             ResultSet rows = s.executeQuery("SELECT who, tz, mode, collation FROM " + table + " ORDER BY session")) {
            assertThat(rows.next()).as(run.out()).isTrue();
            assertThat(List.of(rows.getString(1), rows.getString(2), rows.getString(3), rows.getString(4)))
                    .containsExactly(TestUsers.APP2_USER + "@%", "+03:00", "ANSI_QUOTES", "latin1_swedish_ci");
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).isEqualTo(TestUsers.APP_USER + "@%");
            assertThat(rows.getString(2)).isEqualTo("SYSTEM");
        }
        assertThat(run.out()).contains("sessions not replayed as captured (sessions, why):\n"
                + "         1  opened with the servers' defaults: the capture does not say how the session was opened"
                + " (captured before session_state)\n"
                + "         1  ran as app, not as the captured user (not in --user-map)\n");
    }

    /**
     * At --speed=max a session's statements keep their place among the other sessions': the
     * count sees the other session's rows, and the setup session's DROP at its end does not
     * overtake them.
     */
    @Test
    void atMaxSpeedStatementsWaitForWhatEndedBeforeThemInTheCapture(MariaDbServer server) throws Exception {
        try (Connection c = server.openAdmin(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + TestUsers.TEST_SCHEMA + ".replay_order, " + TestUsers.TEST_SCHEMA
                    + ".replay_counted");
            s.execute("CREATE TABLE " + TestUsers.TEST_SCHEMA + ".replay_counted (n INT)");
        }
        List<String> lines = new ArrayList<>();
        lines.add(line(0, 1, "Query", "CREATE TABLE replay_order (id INT)", "", 0));
        for (int i = 1; i <= 20; i++) {
            lines.add(line(10 + i, 2, "Query", "INSERT INTO replay_order VALUES (" + i + ")", "", 0));
        }
        lines.add(line(100, 1, "Query", "INSERT INTO replay_counted SELECT COUNT(*) FROM replay_order", "", 0));
        lines.add(line(110, 1, "Query", "DROP TABLE replay_order", "", 0));

        SlapCommandTest.Run run = slap(server, "--replay", capture(lines).toString(), "--speed=max");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("23 replayed, 0 not replayed; 0 errors");
        try (Connection c = server.openAdmin(); Statement s = c.createStatement();
             ResultSet rows = s.executeQuery("SELECT n FROM " + TestUsers.TEST_SCHEMA + ".replay_counted")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getInt(1)).isEqualTo(20);
        }
    }

    @Test
    void pausesAreScaledBySpeed(MariaDbServer server) throws Exception {
        Path file = capture(List.of(line(0, 1, "Query", "DO 1", "", 0), line(400, 1, "Query", "DO 2", "", 0),
                line(100, 2, "Query", "DO 3", "", 0), line(500, 2, "Query", "DO 4", "", 0)));

        double atOne = seconds(slap(server, "--replay", file.toString()));
        double atTwo = seconds(slap(server, "--replay", file.toString(), "--speed=2", "--concurrency=1"));
        double atMax = seconds(slap(server, "--replay", file.toString(), "--speed=max"));

        // Session 2 starts 100 ms in and pauses 400 ms: 500 ms at speed 1. One client at speed 2: two
        // sessions of 200 ms one after the other.
        assertThat(atOne).isGreaterThanOrEqualTo(0.5);
        assertThat(atTwo).isGreaterThanOrEqualTo(0.4);
        assertThat(atMax).isLessThan(atOne);
    }

    /**
     * The feed reads the capture a second time while it plays, a bounded number of statements ahead
     * of running sessions: with a bound of one statement, interleaved sessions still play every
     * statement, one client per session and all on one client (whose waiting sessions' statements
     * are queued regardless, or the running one could starve).
     */
    @Test
    void aFeedOneStatementAheadStillPlaysEverything(MariaDbServer server) throws Exception {
        List<String> lines = new ArrayList<>();
        int sessions = 5;
        int each = 40;
        for (int i = 0; i < each; i++) {
            for (int session = 1; session <= sessions; session++) {
                lines.add(line(i * sessions + session, session, "Query", "DO " + session + " + " + i, "", 0));
            }
        }
        Path file = capture(lines);
        for (String concurrency : List.of("preserve", "1")) {
            CommandLine parsed = new CommandLine(new SlapCommand(OptionFiles.Locations.none()));
            parsed.parseArgs("-h", server.host(), "-P", Integer.toString(server.port()), "-u", TestUsers.APP_USER,
                    "--password=" + TestUsers.APP_PASSWORD, "--replay", file.toString(), "--speed=max",
                    "--concurrency=" + concurrency);
            ReplayOptions options = ((SlapCommand) parsed.getCommand()).replayOptions();
            java.io.StringWriter out = new java.io.StringWriter();
            Map<String, Long> grown = new java.util.HashMap<>();
            ReplayResult[] result = new ReplayResult[1];
            grown.putAll(deltas(server, () -> result[0] = Replay.run(options, new java.io.PrintWriter(out),
                    new java.io.PrintWriter(System.err), 1), "Com_do"));

            assertThat(result[0].replayed()).as(out.toString()).isEqualTo((long) sessions * each);
            assertThat(result[0].notReplayed()).isEmpty();
            assertThat(grown).as("concurrency %s", concurrency).containsEntry("Com_do", (long) sessions * each);
        }
    }

    private static double seconds(SlapCommandTest.Run run) {
        assertThat(run.exit()).as(run.err()).isZero();
        Matcher m = ELAPSED.matcher(run.out());
        assertThat(m.find()).as(run.out()).isTrue();
        return Double.parseDouble(m.group(1));
    }

    @Test
    void wrongUseIsExplained(MariaDbServer server) throws Exception {
        Path file = capture(List.of(line(0, 1, "Query", null, "", 0)));

        SlapCommandTest.Run noSql = slap(server, "--replay", file.toString());
        SlapCommandTest.Run mixed = slap(server, "--replay", file.toString(), "-q", "SELECT 1");
        SlapCommandTest.Run speed = slap(server, "--speed=2");
        SlapCommandTest.Run badSpeed = slap(server, "--replay", file.toString(), "--speed=fast");

        assertThat(noSql.exit()).isEqualTo(1);
        assertThat(noSql.err()).contains("holds no SQL text (captured with sql: digest or none)");
        assertThat(mixed.err()).contains("--replay runs the captured statements: it cannot be combined with");
        assertThat(speed.err()).contains("--speed applies to --replay only");
        assertThat(badSpeed.err()).contains("--speed: 'fast' (expected: a factor > 0 such as 1.0 or 10, or max)");
    }
}
