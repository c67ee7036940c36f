package dev.sluice.proxy.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.config.AdminConfig;
import dev.sluice.config.CaptureConfig;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Capture in a running proxy in front of real MariaDB, with Connector/J as the client: values of
 * real prepared statements, secrets, a stuck writer under load, a file that fails, filters and the
 * admin port's switch.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CaptureIT {

    private static final String SCHEMA = "capture_it";
    private static final String PREPARED = "useServerPrepStmts=true&cachePrepStmts=false";

    private static MariaDbCluster cluster;
    @TempDir
    Path dir;

    @BeforeAll
    static void schema(MariaDbCluster shared) throws Exception {
        cluster = shared;
        try (Connection c = cluster.primary().openAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS " + SCHEMA);
            s.execute("CREATE TABLE IF NOT EXISTS " + SCHEMA + ".items (id BIGINT PRIMARY KEY, name VARCHAR(50),"
                    + " price DECIMAL(10,2), at DATETIME(6), data BLOB, note VARCHAR(10))");
            s.execute("DELETE FROM " + SCHEMA + ".items");
        }
    }

    private static SluiceConfig config(CaptureConfig capture) {
        return ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary()))).withCapture(capture);
    }

    private static Connection connect(ProxyServer proxy, String options) throws Exception {
        return ProxyFixture.connect(proxy, SCHEMA, options);
    }

    @Test
    void preparedStatementsOfARealClientKeepTheirValues() throws Exception {
        Path file = dir.resolve("c.jsonl");
        try (ProxyServer proxy = ProxyFixture.start(config(CaptureConfig.jsonl(file)))) {
            try (Connection c = connect(proxy, PREPARED)) {
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO items VALUES (?, ?, ?, ?, ?, ?)")) {
                    insert.setLong(1, 1);
                    insert.setString(2, "naïve 'quote'");
                    insert.setBigDecimal(3, new BigDecimal("12.50"));
                    insert.setObject(4, LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123_456_000));
                    insert.setBytes(5, new byte[] {0, 1, 2, (byte) 0xFF});
                    insert.setNull(6, java.sql.Types.VARCHAR);
                    assertThat(insert.executeUpdate()).isEqualTo(1);
                }
                try (PreparedStatement select = c.prepareStatement("SELECT name FROM items WHERE id = ?")) {
                    select.setLong(1, 1);
                    try (ResultSet rows = select.executeQuery()) {
                        assertThat(rows.next()).isTrue();
                    }
                }
                try (Statement text = c.createStatement()) {
                    text.execute("DELETE FROM items WHERE id = 1");
                }
            }
        }
        List<String> lines = Files.readAllLines(file);

        assertThat(lines).filteredOn(l -> l.contains("\"command\":\"Execute\"") && l.contains("INSERT INTO items"))
                .singleElement().asString().contains("\"user\":\"app\"", "\"schema\":\"capture_it\"",
                        "\"backend\":\"" + cluster.primary().name() + "\"", "\"rows_affected\":1",
                        "\"params\":[1,\"naïve 'quote'\",{\"decimal\":\"12.50\"},"
                                + "{\"datetime\":\"2024-02-29 13:14:15.123456\"},{\"base64\":\"AAEC/w==\"},null]");
        assertThat(lines).filteredOn(l -> l.contains("\"command\":\"Execute\"") && l.contains("SELECT name"))
                .singleElement().asString().contains("\"params\":[1]", "\"rows_sent\":1");
        assertThat(lines).filteredOn(l -> l.contains("\"command\":\"Close stmt\"")).hasSize(2);
        assertThat(lines).filteredOn(l -> l.contains("\"sql\":\"DELETE FROM items WHERE id = 1\"")).singleElement()
                .asString().contains("\"command\":\"Query\"", "\"rows_affected\":1");
    }

    @Test
    void inSplitModeExecutesKeepTheirTextAndValuesWhereverTheyRan() throws Exception {
        Path file = dir.resolve("split.jsonl");
        SluiceConfig config = ProxyFixture.config(ProxyFixture.backends(cluster))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN))
                .withCapture(CaptureConfig.jsonl(file));
        try (ProxyServer proxy = ProxyFixture.start(config); Connection c = connect(proxy, PREPARED)) {
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO items (id, name) VALUES (?, ?)");
                 PreparedStatement select = c.prepareStatement("SELECT name FROM items WHERE id = ?")) {
                for (int id = 100; id < 110; id++) {
                    insert.setLong(1, id);
                    insert.setString(2, "split " + id);
                    insert.executeUpdate();
                    select.setLong(1, id);
                    select.executeQuery().close();
                }
            }
            try (Statement s = c.createStatement()) {
                s.execute("DELETE FROM items WHERE id >= 100");
            }
        }
        List<String> lines = Files.readAllLines(file);
        List<String> executes = lines.stream().filter(l -> l.contains("\"command\":\"Execute\"")).toList();

        // Reads went to replicas, writes to the primary: each execute still has its own text and values.
        List<String> inserts = executes.stream().filter(l -> l.contains("INSERT INTO items")).toList();
        List<String> selects = executes.stream().filter(l -> l.contains("SELECT name FROM items")).toList();
        assertThat(inserts).as(String.join("\n", lines)).hasSize(10);
        assertThat(selects).as(String.join("\n", lines)).hasSize(10);
        for (int i = 0; i < 10; i++) {
            assertThat(inserts.get(i)).contains("\"params\":[" + (100 + i) + ",\"split " + (100 + i) + "\"]",
                    "\"backend\":\"" + cluster.primary().name() + "\"");
            assertThat(selects.get(i)).contains("\"params\":[" + (100 + i) + "]");
        }
        assertThat(selects).anyMatch(l -> cluster.replicas().stream().anyMatch(r -> l.contains("\"backend\":\"" + r.name() + "\"")));
    }

    /**
     * A replay must open each session as it was: a split session that set variables before
     * capture began says so on its first line, and one that logs in later says it did, with its
     * login's collation.
     */
    @Test
    void eachSessionsFirstLineCarriesWhatAReplayNeedsToOpenIt() throws Exception {
        Path file = dir.resolve("state.jsonl");
        SluiceConfig config = ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary())))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN))
                .withCapture(CaptureConfig.jsonl(file).withEnabled(false));
        try (ProxyServer proxy = ProxyFixture.start(config); Connection before = connect(proxy, "")) {
            try (Statement s = before.createStatement()) {
                s.execute("SET time_zone = '+02:00', sql_mode = 'ANSI_QUOTES'");
            }
            proxy.runtime().capture().enable(CaptureConfig.jsonl(file));
            try (Statement s = before.createStatement()) {
                s.execute("SELECT 'already running'");
                s.execute("SELECT 'again'");
            }
            try (Connection after = connect(proxy, "connectionCollation=latin1_swedish_ci");
                 Statement s = after.createStatement()) {
                s.execute("SELECT 'logged in later'");
            }
            proxy.runtime().capture().disable();
        }
        List<String> lines = Files.readAllLines(file);

        // Connector/J's own SETs at connect (autocommit, character_set_results) are among them.
        assertThat(lines).filteredOn(l -> l.contains("already running")).singleElement().asString()
                .contains("\"session_state\":{\"login\":false,\"collation_id\":", "\"sql_mode\":\"ANSI_QUOTES\"",
                        "\"time_zone\":\"+02:00\"");
        assertThat(lines).filteredOn(l -> l.contains("'again'")).singleElement().asString().doesNotContain("session_state");
        long laterSession = lines.stream().filter(l -> l.contains("logged in later")).map(CaptureIT::session)
                .findFirst().orElseThrow();
        // Its first line is Connector/J's own first statement; latin1_swedish_ci is collation 8.
        assertThat(lines).filteredOn(l -> session(l) == laterSession).first().asString()
                .contains("\"session_state\":{\"login\":true,\"collation_id\":8,\"variables\":{");
    }

    private static long session(String line) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"session\":(\\d+)").matcher(line);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    @Test
    void passwordsNeverReachTheFile() throws Exception {
        Path file = dir.resolve("c.jsonl");
        try (ProxyServer proxy = ProxyFixture.start(config(CaptureConfig.jsonl(file)));
             Connection c = connect(proxy, PREPARED); Statement s = c.createStatement()) {
            s.execute("CREATE USER 'capture_u'@'%' IDENTIFIED BY 'Sekrit-1'");
            s.execute("ALTER USER 'capture_u'@'%' IDENTIFIED BY 'Sekrit-2'");
            s.execute("SET PASSWORD FOR 'capture_u'@'%' = PASSWORD('Sekrit-3')");
            try {
                s.execute("GRANT SELECT ON capture_it.* TO 'capture_u'@'%' IDENTIFIED BY 'Sekrit-4'");
            } catch (java.sql.SQLException e) {
                // app may not grant (no GRANT OPTION): the statement still went through the proxy.
            }
            try (PreparedStatement p = c.prepareStatement("ALTER USER 'capture_u'@'%' IDENTIFIED BY ?")) {
                p.setString(1, "Sekrit-5");
                p.execute();
            } catch (java.sql.SQLException e) {
                // MariaDB may refuse a placeholder there; the attempt is what is captured.
            }
            s.execute("DROP USER 'capture_u'@'%'");
        }
        String captured = Files.readString(file);

        assertThat(captured).doesNotContain("Sekrit").contains("IDENTIFIED BY '***'", "PASSWORD('***')");
    }

    @Test
    void aQueueOfOneBehindAStuckWriterDropsAndCountsWithoutSlowingTheClients() throws Exception {
        Path fifo = dir.resolve("stuck.fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0,
                "mkfifo is not available");
        int clients = 8;
        int perClient = 400;
        try (ProxyServer proxy = ProxyFixture.start(config(CaptureConfig.defaults()))) {
            List<Connection> connections = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                connections.add(connect(proxy, ""));
            }
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            try {
                long withoutCapture = load(pool, connections, perClient);
                CompletableFuture<InputStream> reader = CompletableFuture.supplyAsync(() -> {
                    try {
                        return Files.newInputStream(fifo);
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                CaptureControl capture = proxy.runtime().capture();
                capture.enable(CaptureConfig.jsonl(fifo).withQueueSize(1));
                InputStream in = reader.get(10, TimeUnit.SECONDS);
                // The pipe is never read while the load runs: the writer blocks once 64 KiB are in it.
                long stuck = load(pool, connections, perClient);
                long total = (long) clients * perClient;
                CaptureStats stats = capture.stats();

                System.out.printf("%d point selects by %d clients: %d ms without capture, %d ms with a stuck writer"
                        + " (%d queued, %d dropped)%n", total, clients, withoutCapture, stuck,
                        stats.queuedStatements(), stats.droppedStatements());
                assertThat(stats.queuedStatements() + stats.droppedStatements()).isEqualTo(total);
                assertThat(stats.droppedStatements()).isGreaterThan(total / 2);
                assertThat(stuck).as("elapsed ms with a stuck writer vs %d without", withoutCapture)
                        .isLessThan(2 * withoutCapture + 1000);
                CompletableFuture<Long> lines = CompletableFuture.supplyAsync(() -> {
                    try (in) {
                        return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().count();
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                capture.disable();
                assertThat(lines.get(20, TimeUnit.SECONDS)).isEqualTo(stats.queuedStatements());
            } finally {
                pool.shutdownNow();
                for (Connection c : connections) {
                    c.close();
                }
            }
        }
    }

    /** Each connection runs {@code perClient} point selects on its own thread; returns the elapsed ms. */
    private static long load(ExecutorService pool, List<Connection> connections, int perClient) throws Exception {
        long start = System.nanoTime();
        List<Future<?>> running = new ArrayList<>();
        for (Connection c : connections) {
            running.add(pool.submit(() -> {
                try (Statement s = c.createStatement()) {
                    for (int i = 0; i < perClient; i++) {
                        try (ResultSet rows = s.executeQuery("SELECT " + i)) {
                            rows.next();
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : running) {
            f.get(60, TimeUnit.SECONDS);
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    @Test
    void aFullDiskTurnsCaptureOffWhileTheProxyServes() throws Exception {
        Path full = Path.of("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(full), "no /dev/full on this system");
        try (ProxyServer proxy = ProxyFixture.start(config(CaptureConfig.jsonl(full)));
             Connection c = connect(proxy, ""); Statement s = c.createStatement()) {
            for (int i = 0; i < 200; i++) {
                try (ResultSet rows = s.executeQuery("SELECT " + i)) {
                    assertThat(rows.next()).isTrue();
                }
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> !proxy.runtime().capture().status().running());
            try (ResultSet rows = s.executeQuery("SELECT 'still serving'")) {
                assertThat(rows.next()).isTrue();
            }
            assertThat(proxy.runtime().capture().status().failure())
                    .hasValue("cannot write /dev/full: No space left on device");
            assertThat(proxy.runtime().capture().stats().failures()).isEqualTo(1);
        }
    }

    @Test
    void minimumDurationAndUserFilterWithRealSessions() throws Exception {
        Path file = dir.resolve("c.jsonl");
        CaptureConfig capture = CaptureConfig.jsonl(file).withMinDuration(Duration.ofMillis(100))
                .withFilters(Set.of(TestUsers.APP2_USER), Set.of(), Set.of());
        try (ProxyServer proxy = ProxyFixture.start(config(capture));
             Connection app = connect(proxy, "");
             Connection app2 = DriverManager.getConnection(ProxyFixture.url(proxy, TestUsers.TEST_SCHEMA, ""),
                     TestUsers.APP2_USER, TestUsers.APP2_PASSWORD)) {
            for (Connection c : List.of(app, app2)) {
                try (Statement s = c.createStatement()) {
                    s.execute("SELECT SLEEP(0.15), 'slow'");
                    for (int i = 0; i < 5; i++) {
                        s.execute("SELECT 'fast'");
                    }
                }
            }
        }
        List<String> lines = Files.readAllLines(file);

        assertThat(lines).singleElement().asString().contains("\"user\":\"app2\"", "\"sql\":\"SELECT SLEEP(0.15), 'slow'\"");
    }

    /** Each statement's observers (stats alone, stats and capture) see its response, whatever was switched since. */
    @Test
    void switchingCaptureWhileStatementsAreInFlightLosesNone() throws Exception {
        Path file = dir.resolve("c.jsonl");
        for (RoutingConfig.Mode mode : RoutingConfig.Mode.values()) {
            SluiceConfig config = config(CaptureConfig.jsonl(file).withEnabled(false));
            config = config.withRouting(new RoutingConfig(mode, RoutingConfig.Balancer.ROUND_ROBIN));
            try (ProxyServer proxy = ProxyFixture.start(config)) {
                ExecutorService clients = Executors.newFixedThreadPool(4);
                try {
                    List<Future<Integer>> answered = new ArrayList<>();
                    for (int i = 0; i < 4; i++) {
                        answered.add(clients.submit(() -> {
                            int rows = 0;
                            try (Connection c = connect(proxy, ""); Statement s = c.createStatement()) {
                                for (int n = 0; n < 8; n++) {
                                    try (ResultSet r = s.executeQuery("SELECT SLEEP(0.05), " + n)) {
                                        rows += r.next() ? 1 : 0;
                                    }
                                }
                            }
                            return rows;
                        }));
                    }
                    CaptureControl capture = proxy.runtime().capture();
                    // Each poll flips capture (20 flips at most) while the sleeps are in flight.
                    int[] flips = {0};
                    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() -> {
                        if (flips[0] < 20) {
                            if (flips[0]++ % 2 == 0) {
                                capture.enable();
                            } else {
                                capture.disable();
                            }
                        }
                        return answered.stream().allMatch(Future::isDone);
                    });
                    for (Future<Integer> rows : answered) {
                        assertThat(rows.get(60, TimeUnit.SECONDS)).as(mode + " mode").isEqualTo(8);
                    }
                } finally {
                    clients.shutdownNow();
                }
            }
        }
    }

    /** The mariadb client on the admin port, as an operator would run it; its output, or the test fails. */
    private static String adminSql(ProxyServer proxy, String sql) throws Exception {
        Process p = new ProcessBuilder("mariadb", "--skip-ssl", "-h127.0.0.1", "-P" + proxy.admin().sqlAddress().getPort(),
                "-uadmin", "-padmin-secret", "-N", "-B", "-e", sql).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return p.exitValue() == 0 ? out : "exit " + p.exitValue() + ": " + out;
    }

    @Test
    void theAdminPortSwitchesCaptureOnAndOff() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.util.stream.Stream.of(System.getenv("PATH").split(":"))
                .anyMatch(d -> Files.isExecutable(Path.of(d, "mariadb"))), "the mariadb client is not installed"
                + " (Debian: mariadb-client)");
        Path file = dir.resolve("c.jsonl");
        SluiceConfig config = config(CaptureConfig.jsonl(file).withEnabled(false))
                .withAdmin(AdminConfig.onFreePorts("admin", "admin-secret"));
        try (ProxyServer proxy = ProxyServer.start(config, null);
             Connection c = connect(proxy, ""); Statement s = c.createStatement()) {
            s.execute("SELECT 'before'");
            assertThat(adminSql(proxy, "SET CAPTURE ON")).isEmpty();
            s.execute("SELECT 'while on'");
            assertThat(adminSql(proxy, "SHOW CAPTURE")).startsWith("ON\t" + file + "\tjsonl\tfull\t1\t");
            assertThat(adminSql(proxy, "SET CAPTURE = OFF")).isEmpty();
            s.execute("SELECT 'after'");
            assertThat(adminSql(proxy, "SHOW CAPTURE")).isEqualTo("OFF\t" + file + "\tjsonl\tfull\t1\t1\t0\t"
                    + Files.size(file) + "\t0\tNULL\n");
            assertThat(Files.readAllLines(file)).singleElement().asString().contains("\"sql\":\"SELECT 'while on'\"");
            assertThat(adminSql(proxy, "SET CAPTURE MAYBE")).startsWith("exit 1: ").contains(
                    "Variable 'capture' can't be set to the value of 'MAYBE' (expected: ON or OFF)");
        }
    }
}
