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
import dev.sluice.testkit.ClusterSpec;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A workload captured through the proxy (slap's mixed load on three clients, and a Connector/J
 * session of server-side prepared statements), compared on two servers that differ on purpose: B
 * runs without strict sql_mode, and its copy of the table lacks the index A reads a group through.
 * The comparison must name exactly the statements whose answers that changes, and no other: a
 * too-long insert (an error on A, a truncation warning on B), a LIMIT without ORDER BY (another
 * row), an ORDER BY over ties (the same rows in another order), and Connector/J's query of the
 * server's variables (sql_mode among them). A read without ORDER BY that gets its rows in another
 * order, the mixed load and everything else must agree.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 240, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CompareIT {

    private static final String SCHEMA = "compare_it";
    private static final int GROUPS = 50;
    private static final int PER_GROUP = 20;

    private static MariaDbServer a;
    private static MariaDbCluster other;
    private static MariaDbServer b;
    @TempDir
    static Path work;

    @BeforeAll
    static void servers(MariaDbCluster shared) throws Exception {
        a = shared.primary();
        long maxConnections;
        try (Connection c = a.openAdmin(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT @@max_connections")) {
            r.next();
            maxConnections = r.getLong(1);
        }
        // The same server but for sql_mode: MariaDB's default without STRICT_TRANS_TABLES.
        other = MariaDbCluster.start(ClusterSpec.builder().replicas(0).maxConnections((int) maxConnections)
                .extraServerArgs("--sql-mode=ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION")
                .build());
        b = other.primary();
    }

    @AfterAll
    static void stop() {
        if (other != null) {
            other.close();
        }
    }

    /** The tables as they are before the workload: on B without the index. */
    private static void fresh(MariaDbServer server, boolean index) throws Exception {
        StringBuilder rows = new StringBuilder();
        for (int id = 1; id <= GROUPS * PER_GROUP; id++) {
            // Within a group, rnk falls as id grows: the index's order is the opposite of the table's.
            rows.append(id == 1 ? "" : ",").append('(').append(id).append(',').append((id - 1) / PER_GROUP + 1).append(',')
                    .append(10_000 - id).append(",'n')");
        }
        try (Connection c = server.openAdmin(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS mysqlslap");
            s.execute("DROP DATABASE IF EXISTS " + SCHEMA);
            s.execute("CREATE DATABASE " + SCHEMA);
            s.execute("CREATE TABLE " + SCHEMA + ".items (id INT PRIMARY KEY, grp INT NOT NULL, rnk INT NOT NULL,"
                    + " note VARCHAR(10)" + (index ? ", KEY by_group (grp, rnk)" : "") + ")");
            s.execute("INSERT INTO " + SCHEMA + ".items VALUES " + rows);
            s.execute("CREATE TABLE " + SCHEMA + ".notes (id INT PRIMARY KEY, note VARCHAR(5))");
            s.execute("ANALYZE TABLE " + SCHEMA + ".items");
        }
    }

    private static Path capture() throws Exception {
        Path file = work.resolve("workload.jsonl");
        SluiceConfig config = SluiceConfig.defaults().withListen(new HostPort("127.0.0.1", 0))
                .withUsers(List.of(new UserConfig(TestUsers.APP_USER, TestUsers.APP_PASSWORD)))
                .withBackends(List.of(new BackendConfig(a.name(), new HostPort(a.host(), a.port()),
                        BackendConfig.Role.PRIMARY, 1, 200)))
                .withCapture(CaptureConfig.jsonl(file));
        try (ProxyServer proxy = ProxyServer.start(config)) {
            DigestCommandTest.Run mixed = DigestCommandTest.sluice("slap", "--no-defaults", "-h", "127.0.0.1", "-P",
                    Integer.toString(proxy.port()), "-u", TestUsers.APP_USER, "--password=" + TestUsers.APP_PASSWORD,
                    "--auto-generate-sql", "--concurrency=3", "--number-of-queries=150", "--seed=7");
            assertThat(mixed.exit()).as(mixed.err()).isZero();
            preparedStatements(proxy.port());
        }
        return file;
    }

    private static void preparedStatements(int port) throws Exception {
        String url = "jdbc:mysql://127.0.0.1:" + port + "/" + SCHEMA + "?sslMode=DISABLED&useServerPrepStmts=true"
                + "&cachePrepStmts=false";
        try (Connection c = DriverManager.getConnection(url, TestUsers.APP_USER, TestUsers.APP_PASSWORD);
             PreparedStatement first = c.prepareStatement("SELECT id FROM items WHERE grp = ? LIMIT 1");
             PreparedStatement group = c.prepareStatement("SELECT rnk FROM items WHERE grp = ?");
             PreparedStatement ranked = c.prepareStatement("SELECT id, rnk FROM items WHERE grp = ? ORDER BY rnk");
             PreparedStatement ties = c.prepareStatement("SELECT id FROM items WHERE grp = ? ORDER BY grp");
             PreparedStatement note = c.prepareStatement("UPDATE items SET note = ? WHERE id = ?");
             PreparedStatement tooLong = c.prepareStatement("INSERT INTO notes (id, note) VALUES (?, ?)");
             Statement text = c.createStatement()) {
            for (int g = 1; g <= 5; g++) {
                for (PreparedStatement read : List.of(first, group, ranked, ties)) {
                    read.setInt(1, g);
                    read.executeQuery().close();
                }
                note.setString(1, "g" + g);
                note.setInt(2, g * PER_GROUP);
                note.executeUpdate();
            }
            tooLong.setInt(1, 1);
            tooLong.setString(2, "far too long");
            try {
                tooLong.executeUpdate();
            } catch (java.sql.SQLException e) {
                assertThat(e.getErrorCode()).as("A is strict").isEqualTo(1406);
            }
            text.executeQuery("SELECT COUNT(*), SUM(rnk) FROM items").close();
        }
    }

    @Test
    void findsExactlyTheStatementsWhoseAnswersDiffer() throws Exception {
        fresh(a, true);
        Path capture = capture();
        // The workload changed A: both copies start again from the same data.
        fresh(a, true);
        fresh(b, false);
        Path json = work.resolve("compare.json");
        Path html = work.resolve("compare.html");

        DigestCommandTest.Run compare = DigestCommandTest.sluice("slap", "--no-defaults", "-h", a.host(), "-P",
                Integer.toString(a.port()), "-u", TestUsers.APP_USER, "--password=" + TestUsers.APP_PASSWORD,
                "--replay", capture.toString(), "--compare", b.host() + ":" + b.port(), "--speed=max",
                "--json=" + json, "--report-html=" + html);
        System.out.println(compare.out());

        assertThat(compare.exit()).as(compare.err()).isEqualTo(1);
        List<CapturedEvent> events = CaptureFile.read(capture);
        Set<String> expected = new TreeSet<>();
        expected.addAll(keys(events, e -> e.command().equals("Execute") && e.sql().endsWith("LIMIT 1")));
        expected.addAll(keys(events, e -> e.command().equals("Execute") && e.sql().endsWith("ORDER BY grp")));
        expected.addAll(keys(events, e -> e.command().equals("Execute") && e.sql().startsWith("INSERT INTO notes")));
        // Connector/J reads the server's variables on its first connect; sql_mode is among them.
        expected.addAll(keys(events, e -> e.command().equals("Query") && e.sql().contains("@@sql_mode")));
        assertThat(expected).as("the workload holds each statement meant to differ").hasSizeGreaterThanOrEqualTo(4);

        Map<String, Object> report = object(JsonText.parse(Files.readString(json)));
        List<Map<String, Object>> digests = ((List<?>) report.get("digests")).stream().map(CompareIT::object).toList();
        Set<String> differing = digests.stream().filter(d -> (Long) d.get("differing") > 0)
                .map(d -> d.get("command") + "|" + d.get("digest")).collect(Collectors.toCollection(TreeSet::new));
        assertThat(differing).isEqualTo(expected);
        assertThat(report.get("not_replayed")).as("every statement was compared").isEqualTo(Map.of());
        assertThat(report.get("compared")).isEqualTo((long) events.size());

        Map<String, Object> insert = digest(digests, "INSERT INTO notes");
        assertThat((String) object(insert.get("first_difference")).get("difference")).contains("error 1406", "1265");
        assertThat(object(insert.get("first_difference")).get("params")).isEqualTo(List.of(1L, "far too long"));
        assertThat(digest(digests, "ORDER BY grp").get("order_only")).isEqualTo(5L);
        Map<String, Object> unordered = digest(digests, "SELECT rnk FROM items WHERE grp = ?");
        assertThat(firstRank(a)).as("A reads the group through its index, B through the table")
                .isNotEqualTo(firstRank(b));
        assertThat(unordered).as("rows in another order without ORDER BY are the same answer")
                .containsEntry("compared", 5L).containsEntry("differing", 0L);
        assertThat(digests).as("slap's mixed load ran and agreed")
                .anySatisfy(d -> assertThat((String) d.get("text")).startsWith("INSERT INTO t1 VALUES"));
        assertThat(Files.readString(html)).contains("Answers that differ: " + expected.size() + " of ");
    }

    private static int firstRank(MariaDbServer server) throws Exception {
        try (Connection c = server.openAdmin(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT rnk FROM " + SCHEMA + ".items WHERE grp = 1")) {
            assertThat(r.next()).isTrue();
            return r.getInt(1);
        }
    }

    private static Set<String> keys(List<CapturedEvent> events, Predicate<CapturedEvent> which) {
        return events.stream().filter(e -> e.sql() != null && which.test(e)).map(e -> e.command() + "|" + e.digest())
                .collect(Collectors.toSet());
    }

    private static Map<String, Object> digest(List<Map<String, Object>> digests, String text) {
        return digests.stream().filter(d -> d.get("command").equals("Execute") && ((String) d.get("text")).contains(text))
                .findFirst().orElseThrow(() -> new AssertionError("no Execute of " + text));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object value) {
        return (Map<String, Object>) value;
    }
}
