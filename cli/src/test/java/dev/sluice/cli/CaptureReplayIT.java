package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.CaptureConfig;
import dev.sluice.config.HostPort;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.UserConfig;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.slap.CaptureFile;
import dev.sluice.slap.CapturedEvent;
import dev.sluice.slap.JsonText;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sysbench oltp_read_write run (server-side prepared statements, and a text-protocol one)
 * through the proxy with capture on: the capture holds exactly what the backend executed, every
 * field of every line; the slow-log capture reads in pt-query-digest and mysqldumpslow; replayed
 * by slap against the same tables made afresh, the backend executes the same commands again; and
 * sluice digest reports it. Tools that are missing make their test SKIPPED, with a message.
 */
@ExtendWith(MariaDbClusterExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 150, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CaptureReplayIT {

    private static final String SCHEMA = "capture_sb";
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(90);
    /** Backend counters for the commands a capture holds (text statements by their first word). */
    static final List<String> COUNTERS = List.of("Com_stmt_prepare", "Com_stmt_execute", "Com_stmt_close", "Com_begin",
            "Com_commit", "Com_rollback", "Com_select", "Com_insert", "Com_update", "Com_delete");

    private static MariaDbCluster cluster;
    private static MariaDbServer primary;
    @TempDir
    static Path work;
    private static Path jsonl;
    private static Map<String, Long> capturedJsonl;

    @BeforeAll
    static void tables(MariaDbCluster shared) throws Exception {
        cluster = shared;
        primary = cluster.primary();
        freshTables();
    }

    /** The sysbench tables made again, directly on the primary. */
    private static void freshTables() throws Exception {
        try (Connection c = primary.openAdmin(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + SCHEMA);
            s.execute("CREATE DATABASE " + SCHEMA);
        }
        Tool.Run prepare = sysbench(primary.port(), "prepare", "--threads=2");
        assertThat(prepare.exit()).as(prepare.toString()).isZero();
    }

    private static Tool.Run sysbench(int port, String command, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("oltp_read_write", "--db-driver=mysql", "--mysql-host=127.0.0.1",
                "--mysql-port=" + port, "--mysql-user=" + TestUsers.APP_USER, "--mysql-password=" + TestUsers.APP_PASSWORD,
                "--mysql-db=" + SCHEMA, "--mysql-ssl=off", "--tables=2", "--table-size=500"));
        args.addAll(List.of(more));
        args.add(command);
        return Tool.require("sysbench", "sysbench").run(work, RUN_TIMEOUT, args);
    }

    private static ProxyServer proxy(CaptureConfig capture) throws Exception {
        SluiceConfig config = SluiceConfig.defaults().withListen(new HostPort("127.0.0.1", 0))
                .withUsers(List.of(new UserConfig(TestUsers.APP_USER, TestUsers.APP_PASSWORD)))
                .withBackends(List.of(new BackendConfig(primary.name(), new HostPort(primary.host(), primary.port()),
                        BackendConfig.Role.PRIMARY, 1, 200)))
                .withCapture(capture);
        return ProxyServer.start(config);
    }

    /** sysbench through a capturing proxy: both prepared-statement and text-protocol transactions. */
    private static Map<String, Long> captureSysbench(CaptureConfig capture) throws Exception {
        Map<String, Long> before = status();
        try (ProxyServer proxy = proxy(capture)) {
            Tool.Run prepared = sysbench(proxy.port(), "run", "--threads=4", "--events=150", "--time=0",
                    "--db-ps-mode=auto", "--mysql-ignore-errors=1213,1062", "--report-interval=0");
            assertThat(prepared.exit()).as(prepared.toString()).isZero();
            Tool.Run text = sysbench(proxy.port(), "run", "--threads=2", "--events=30", "--time=0",
                    "--db-ps-mode=disable", "--mysql-ignore-errors=1213,1062", "--report-interval=0");
            assertThat(text.exit()).as(text.toString()).isZero();
        }
        Map<String, Long> after = status();
        Map<String, Long> grown = new TreeMap<>();
        COUNTERS.forEach(c -> grown.put(c, after.get(c) - before.get(c)));
        return grown;
    }

    private static Map<String, Long> status() {
        Map<String, Long> values = new TreeMap<>();
        COUNTERS.forEach(c -> values.put(c, primary.globalStatus(c)));
        return values;
    }

    /** What the backend should have counted for these statements, counter by counter. */
    static Map<String, Long> expectedCounters(List<CapturedEvent> events) {
        Map<String, Long> expected = new TreeMap<>();
        COUNTERS.forEach(c -> expected.put(c, 0L));
        for (CapturedEvent e : events) {
            switch (e.command()) {
                case CapturedEvent.PREPARE -> expected.merge("Com_stmt_prepare", 1L, Long::sum);
                case CapturedEvent.CLOSE -> expected.merge("Com_stmt_close", 1L, Long::sum);
                case CapturedEvent.EXECUTE -> {
                    expected.merge("Com_stmt_execute", 1L, Long::sum);
                    // MariaDB also counts an executed statement under its own kind.
                    expected.merge(kind(e.sql()), 1L, Long::sum);
                }
                case CapturedEvent.QUERY -> expected.merge(kind(e.sql()), 1L, Long::sum);
                default -> expected.merge("other: " + e.command(), 1L, Long::sum);
            }
        }
        return expected;
    }

    private static String kind(String sql) {
        String first = sql.strip().split("\\s+")[0].toLowerCase(Locale.ROOT);
        return "Com_" + (first.equals("start") ? "begin" : first);
    }

    @Test
    @Order(1)
    void aJsonlCaptureHoldsWhatTheBackendExecutedWithEveryField() throws Exception {
        jsonl = work.resolve("sysbench.jsonl");
        Map<String, Long> executed = captureSysbench(CaptureConfig.jsonl(jsonl));
        List<CapturedEvent> events = CaptureFile.read(jsonl);

        System.out.println("backend counted " + executed + ", capture holds " + events.size() + " statements");
        assertThat(expectedCounters(events)).isEqualTo(executed);
        assertThat(executed.get("Com_stmt_execute")).isGreaterThan(1000);
        assertThat(executed.get("Com_select")).isGreaterThan(executed.get("Com_stmt_execute") / 2);
        for (String line : Files.readAllLines(jsonl)) {
            @SuppressWarnings("unchecked")
            Map<String, Object> fields = (Map<String, Object>) JsonText.parse(line);
            assertThat(fields).as(line).containsKeys(CapturedEvent.FIELDS.toArray(String[]::new));
            assertThat(fields.get("time")).as(line).asString().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z");
            assertThat(fields).as(line).containsEntry("user", TestUsers.APP_USER).containsEntry("schema", SCHEMA)
                    .containsEntry("backend", primary.name());
            assertThat(fields.get("client")).as(line).asString().matches("127\\.0\\.0\\.1:\\d+");
            assertThat(fields.get("sql")).as(line).isNotNull();
            assertThat(fields.get("digest")).as(line).asString().matches("[0-9A-F]{16}");
            assertThat((Long) fields.get("duration_us")).as(line).isNotNegative();
            if ("Execute".equals(fields.get("command")) || "Query".equals(fields.get("command"))) {
                // At least one packet came back: a 4-byte header and a payload.
                assertThat((Long) fields.get("bytes_out")).as(line).isGreaterThanOrEqualTo(5L);
            }
            if ("Execute".equals(fields.get("command"))) {
                assertThat(fields).as(line).containsKey("statement_id").doesNotContainKey("params_problem");
                assertThat(fields.get("params")).as(line).isInstanceOf(List.class);
            }
        }
        capturedJsonl = expectedCounters(events);
    }

    @Test
    @Order(2)
    void aSlowLogCaptureReadsInPtQueryDigestAndMysqldumpslow() throws Exception {
        Tool ptQueryDigest = Tool.require("pt-query-digest", "percona-toolkit");
        Path slow = work.resolve("sysbench-slow.log");
        Map<String, Long> executed = captureSysbench(CaptureConfig.jsonl(slow).withFormat(CaptureConfig.Format.SLOWLOG));
        // Every command but COM_STMT_CLOSE has an entry.
        long entries = executed.get("Com_stmt_prepare") + executed.get("Com_stmt_execute")
                + COUNTERS.stream().filter(c -> !c.startsWith("Com_stmt")).mapToLong(executed::get).sum()
                - executed.get("Com_stmt_execute");

        Tool.Run digest = ptQueryDigest.run(work, RUN_TIMEOUT, List.of("--output", "json", "--limit", "100%:1000",
                slow.toString()));

        assertThat(digest.exit()).as(digest.toString()).isZero();
        assertThat(digest.err()).as(digest.toString()).isEmpty();
        @SuppressWarnings("unchecked")
        Map<String, Object> report = (Map<String, Object>) JsonText.parse(digest.out().strip());
        @SuppressWarnings("unchecked")
        Map<String, Object> global = (Map<String, Object>) report.get("global");
        assertThat(global.get("query_count")).as(digest.out()).isEqualTo(entries);
        Tool.Run dumpslow = Tool.require("mysqldumpslow", "mariadb-client").run(work, RUN_TIMEOUT,
                List.of("-s", "c", "-a", slow.toString()));
        assertThat(dumpslow.exit()).as(dumpslow.toString()).isZero();
        long counted = dumpslow.out().lines().filter(l -> l.startsWith("Count: "))
                .mapToLong(l -> Long.parseLong(l.substring(7).split("\\s+")[0])).sum();
        assertThat(counted).as(dumpslow.toString()).isEqualTo(entries);
    }

    @Test
    @Order(3)
    void aReplayOnFreshTablesMakesTheBackendRunTheSameCommands() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(capturedJsonl != null, "the jsonl capture test did not run");
        freshTables();
        Path warmUp = Files.writeString(work.resolve("warm-up.jsonl"), Files.readAllLines(jsonl).get(0) + "\n");
        DigestCommandTest.Run first = DigestCommandTest.sluice(slap("--replay", warmUp.toString()));
        assertThat(first.exit()).as(first.err()).isZero();

        Map<String, Long> before = status();
        DigestCommandTest.Run replay = DigestCommandTest.sluice(slap("--replay", jsonl.toString(), "--speed=4"));
        Map<String, Long> after = status();

        System.out.println(replay.out());
        assertThat(replay.exit()).as(replay.err()).isZero();
        Map<String, Long> executed = new TreeMap<>();
        COUNTERS.forEach(c -> executed.put(c, after.get(c) - before.get(c)));
        assertThat(executed).isEqualTo(capturedJsonl);
        assertThat(replay.out()).contains("0 not replayed");
    }

    private static String[] slap(String... args) {
        List<String> all = new ArrayList<>(List.of("slap", "--no-defaults", "-h", "127.0.0.1", "-P", Integer.toString(primary.port()),
                "-u", TestUsers.APP_USER, "--password=" + TestUsers.APP_PASSWORD));
        all.addAll(List.of(args));
        return all.toArray(String[]::new);
    }

    @Test
    @Order(4)
    void sluiceDigestReportsTheCapture() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(jsonl != null && Files.exists(jsonl), "no jsonl capture");
        List<CapturedEvent> events = CaptureFile.read(jsonl);
        Map<String, Long> perDigest = new TreeMap<>();
        events.stream().filter(e -> e.command().equals(CapturedEvent.EXECUTE) || e.command().equals(CapturedEvent.QUERY))
                .forEach(e -> perDigest.merge(e.digest(), 1L, Long::sum));

        DigestCommandTest.Run run = DigestCommandTest.sluice("digest", "--limit", "100", jsonl.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("# " + events.size() + " statements, ");
        perDigest.forEach((digest, count) -> assertThat(run.out()).containsPattern(
                "# Query \\d+: 0x" + digest + ", " + count + " statements"));
    }
}
