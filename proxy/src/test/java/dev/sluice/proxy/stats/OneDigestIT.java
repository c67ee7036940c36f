package dev.sluice.proxy.stats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.CaptureConfig;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.RoutingRule;
import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.admin.Table;
import dev.sluice.proxy.sql.Digest;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.MariaDbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * One statement, one digest, through the proxy in front of real MariaDB: a latin1 client whose
 * sql_mode has ANSI_QUOTES and NO_BACKSLASH_ESCAPES sends statements whose digest differs when
 * read as UTF-8 with the default sql_mode; the digest the admin {@code digests} table shows is
 * the one capture writes and the one a routing rule's {@code digest:} matches.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OneDigestIT {

    private static final String SCHEMA = "digest_it";
    /** Connector/J speaks latin1 (and encodes the SQL text so) with this encoding. */
    private static final String LATIN1 = "characterEncoding=Cp1252";
    private static final String RULED = "SELECT \"café\", naïve FROM t WHERE note = 'x\\' OR id = 1";
    private static final String RULED_DIGEST = "SELECT café, naïve FROM t WHERE note = ? OR id = ?";
    private static final String UNRULED = "SELECT \"café\", naïve FROM t WHERE id = 1";
    private static final String UNRULED_DIGEST = "SELECT café, naïve FROM t WHERE id = ?";
    private static final Pattern LINE = Pattern.compile(
            "\"backend\":\"([^\"]+)\".*\"digest\":\"([0-9A-F]{16})\",\"digest_text\":\"([^\"]*)\"");

    private static MariaDbCluster cluster;
    @TempDir
    Path dir;

    @BeforeAll
    static void schema(MariaDbCluster shared) throws Exception {
        cluster = shared;
        try (Connection c = cluster.primary().openAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS " + SCHEMA);
            s.execute("CREATE OR REPLACE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY, note VARCHAR(20), `café` INT,"
                    + " `naïve` INT) CHARACTER SET utf8mb4");
            s.execute("INSERT INTO " + SCHEMA + ".t VALUES (1, 'one', 10, 20)");
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(30));
    }

    @Test
    void inSplitModeStatsCaptureAndRoutingRulesShareTheDigest() throws Exception {
        String ruled = Digest.hex(Digest.hash(RULED_DIGEST));
        Path file = dir.resolve("split.jsonl");
        RoutingConfig routing = new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN,
                RoutingConfig.ReadYourWrites.OFF, RoutingConfig.DEFAULT_PRIMARY_WINDOW,
                RoutingConfig.DEFAULT_GTID_WAIT_TIMEOUT, List.of(new RoutingRule(null, ruled, RoutingRule.Route.PRIMARY)));
        SluiceConfig config = ProxyFixture.config(ProxyFixture.backends(cluster)).withRouting(routing)
                .withCapture(CaptureConfig.jsonl(file));
        try (ProxyServer proxy = ProxyFixture.start(config)) {
            try (Connection c = ProxyFixture.connect(proxy, SCHEMA, LATIN1); Statement s = c.createStatement()) {
                s.execute("SET SESSION sql_mode = 'STRICT_TRANS_TABLES,ANSI_QUOTES,NO_BACKSLASH_ESCAPES'");
                assertThat(values(s, RULED)).isEqualTo("10 20");
                assertThat(values(s, UNRULED)).isEqualTo("10 20");
            }
            assertThat(digests(proxy)).contains(ruled + " " + RULED_DIGEST + " 1",
                    Digest.hex(Digest.hash(UNRULED_DIGEST)) + " " + UNRULED_DIGEST + " 1");
        }
        List<String> captured = captured(file);

        String primary = cluster.primary().name();
        assertThat(captured).as("the rule sent its statement to the primary; the other read went to a replica")
                .contains(primary + " " + ruled + " " + RULED_DIGEST)
                .anyMatch(line -> line.endsWith(" " + Digest.hex(Digest.hash(UNRULED_DIGEST)) + " " + UNRULED_DIGEST)
                        && cluster.replicas().stream().map(MariaDbServer::name).anyMatch(r -> line.startsWith(r + " ")));
    }

    @Test
    void inSessionModeStatsAndCaptureShareTheDigestOfTheHandshakesCharacterSet() throws Exception {
        Path file = dir.resolve("session.jsonl");
        String expected = "SELECT naïve FROM t WHERE id = ?";
        SluiceConfig config = ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary())))
                .withCapture(CaptureConfig.jsonl(file));
        try (ProxyServer proxy = ProxyFixture.start(config)) {
            try (Connection c = ProxyFixture.connect(proxy, SCHEMA, LATIN1); Statement s = c.createStatement()) {
                try (ResultSet rows = s.executeQuery("SELECT naïve FROM t WHERE id = 1")) {
                    assertThat(rows.next()).isTrue();
                    assertThat(rows.getInt(1)).isEqualTo(20);
                }
            }
            assertThat(digests(proxy)).contains(Digest.hex(Digest.hash(expected)) + " " + expected + " 1");
        }
        assertThat(captured(file)).contains(cluster.primary().name() + " " + Digest.hex(Digest.hash(expected))
                + " " + expected);
    }

    private static String values(Statement s, String sql) throws Exception {
        try (ResultSet rows = s.executeQuery(sql)) {
            assertThat(rows.next()).as(sql).isTrue();
            return rows.getInt(1) + " " + rows.getInt(2);
        }
    }

    /** The admin digests table as "digest digest_text count" rows. */
    private static List<String> digests(ProxyServer proxy) {
        Table table = proxy.admin().tables().digests();
        int digest = table.indexOf("digest");
        int text = table.indexOf("digest_text");
        int count = table.indexOf("count");
        return table.rows().stream().map(row -> row.get(digest) + " " + row.get(text) + " " + row.get(count)).toList();
    }

    /** The capture file's lines as "backend digest digest_text". */
    private static List<String> captured(Path file) throws Exception {
        return Files.readAllLines(file).stream().map(LINE::matcher).filter(Matcher::find)
                .map(m -> m.group(1) + " " + m.group(2) + " " + m.group(3)).toList();
    }
}
