package dev.sluice.proxy.clients;

import static org.assertj.core.api.Assertions.assertThat;

import com.mysql.cj.jdbc.JdbcConnection;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.clients.StatementResult.Failure;
import dev.sluice.proxy.clients.StatementResult.Rows;
import dev.sluice.proxy.clients.StatementResult.UpdateCount;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * mysql-connector-j features that move more than a statement: LOAD DATA LOCAL INFILE (forwarded
 * only when limits.allow_local_infile is on), a BLOB larger than one 16 MiB packet, COM_CHANGE_USER
 * and COM_RESET_CONNECTION. Each is compared with a direct connection to the primary.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConnectorJSessionIT {

    private static final String SCHEMA = "cj_session_it";
    /** One byte more than a single packet can carry, plus a tail, so both the value and the row are split. */
    private static final int BLOB_SIZE = (1 << 24) + 4321;
    private static final int INFILE_ROWS = 20_000;

    private static MariaDbCluster cluster;
    private static ProxyServer proxy;

    @BeforeAll
    static void start(MariaDbCluster shared) throws SQLException {
        cluster = shared;
        ClientProxies.admin(cluster.primary(), "CREATE DATABASE IF NOT EXISTS " + SCHEMA);
        proxy = ProxyFixture.start(ClientProxies.localInfile(ClientProxies.primaryOnly(cluster), true));
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    private static Connection direct(String options) throws SQLException {
        return DriverManager.getConnection(ClientProxies.connectorJ(cluster.primary().port(), SCHEMA, options),
                TestUsers.APP_USER, TestUsers.APP_PASSWORD);
    }

    private static Connection through(ProxyServer server, String options) throws SQLException {
        return DriverManager.getConnection(ClientProxies.connectorJ(server.port(), SCHEMA, options),
                TestUsers.APP_USER, TestUsers.APP_PASSWORD);
    }

    /** In the schema both app and app2 may use, for COM_CHANGE_USER. */
    private static Connection connect(int port, String schema) throws SQLException {
        return DriverManager.getConnection(ClientProxies.connectorJ(port, schema, ""), TestUsers.APP_USER,
                TestUsers.APP_PASSWORD);
    }

    private static Path infile(Path dir) throws IOException {
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= INFILE_ROWS; i++) {
            text.append(i).append('\t').append(i % 13 == 0 ? "\\N" : "line " + i + " ä\\tb").append('\t')
                    .append(i * 0.5).append('\n');
        }
        Path file = dir.resolve("rows.tsv");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    private static List<StatementResult> loadLocal(Connection c, Path file) throws SQLException {
        List<StatementResult> out = new ArrayList<>();
        out.addAll(StatementResult.execute(c,
                "CREATE TEMPORARY TABLE l (id INT PRIMARY KEY, label VARCHAR(40) CHARACTER SET utf8mb4, half DOUBLE)"));
        out.addAll(StatementResult.execute(c, "LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE l CHARACTER SET utf8mb4"));
        out.addAll(StatementResult.execute(c, "SELECT COUNT(*), COUNT(label), SUM(half), MAX(label) FROM l"));
        out.addAll(StatementResult.execute(c, "SELECT * FROM l WHERE id IN (1, 13, 19999) ORDER BY id"));
        return out;
    }

    @Test
    void loadDataLocalInfileWhenAllowed(@TempDir Path dir) throws Exception {
        Path file = infile(dir);
        List<StatementResult> expected;
        try (Connection c = direct("allowLoadLocalInfile=true")) {
            expected = loadLocal(c, file);
        }
        assertThat(expected.get(1)).isEqualTo(new UpdateCount(INFILE_ROWS));
        try (Connection c = through(proxy, "allowLoadLocalInfile=true")) {
            assertThat(loadLocal(c, file)).isEqualTo(expected);
            assertThat(StatementResult.execute(c, "SELECT 'after the load'")).singleElement().isInstanceOf(Rows.class);
        }
    }

    @Test
    void loadDataLocalInfileIsRefusedWhenNotAllowed(@TempDir Path dir) throws Exception {
        Path file = infile(dir);
        try (ProxyServer refusing = ProxyFixture.start(ClientProxies.primaryOnly(cluster));
             Connection c = through(refusing, "allowLoadLocalInfile=true")) {
            List<StatementResult> results = loadLocal(c, file);
            assertThat(results.get(1)).isInstanceOf(Failure.class);
            Failure failure = (Failure) results.get(1);
            // MariaDB's answer when the client did not offer CLIENT_LOCAL_FILES (the proxy hid it).
            assertThat(failure.errorCode()).as(failure.toString()).isIn(4166, 1148);
            assertThat(((Rows) results.get(2)).rows()).as("nothing was loaded")
                    .containsExactly(java.util.Arrays.asList(0L, 0L, null, null));
            assertThat(StatementResult.execute(c, "SELECT 'still usable' AS s")).singleElement()
                    .extracting(r -> ((Rows) r).rows()).isEqualTo(List.of(List.of("still usable")));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void blobLargerThanOnePacketRoundTrips(boolean serverSide) throws Exception {
        BigBlob big = BigBlob.of(42, serverSide);
        assertThat(big.directAnswer().subList(0, serverSide ? 5 : 4)).containsExactlyElementsOf(serverSide
                ? List.of(1, 1, (long) BLOB_SIZE, big.digest(), big.digest())
                : List.of(1, (long) BLOB_SIZE, big.digest(), big.digest()));
        assertThat(((Rows) big.directAnswer().getLast()).rows()).hasSize(serverSide ? 2 : 1).allSatisfy(row -> {
            assertThat(((Number) row.get(1)).longValue()).isEqualTo(BLOB_SIZE);
            assertThat(row.get(2)).isEqualTo(big.digest());
        });
        try (Connection c = through(proxy, big.options())) {
            assertThat(StatementResult.execute(c, "SELECT @@max_allowed_packet")).singleElement()
                    .extracting(r -> ((Number) ((Rows) r).rows().getFirst().getFirst()).longValue())
                    .as("the backend's max_allowed_packet leaves room for the BLOB").isEqualTo(64L << 20);
            assertThat(blobRoundTrip(c, big.blob(), serverSide)).isEqualTo(big.directAnswer());
        }
    }

    /**
     * Split mode routes a command once it is whole: commands over 16 MiB come in several packets.
     * The BLOB round trip is pinned to the primary (a temporary table); reads of a prepared
     * statement with a parameter over 16 MiB go to the replicas in turn, so some run where the
     * statement was prepared lazily and the proxy must add the parameter types to the execute.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void commandsLargerThanOnePacketInSplitMode(boolean serverSide) throws Exception {
        BigBlob big = BigBlob.of(7, serverSide);
        SluiceConfig config = ProxyFixture.config(ProxyFixture.backends(cluster))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN));
        try (ProxyServer split = ProxyFixture.start(config); Connection c = through(split, big.options())) {
            // One parameter: Connector/J sends a client-side one in hex, twice its size.
            try (PreparedStatement read = c.prepareStatement("SELECT SHA2(?, 256), @@port")) {
                java.util.Set<Integer> ports = new java.util.HashSet<>();
                for (int i = 0; i < 4; i++) {
                    read.setBytes(1, big.blob());
                    try (ResultSet rs = read.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getString(1)).isEqualTo(big.digest());
                        ports.add(rs.getInt(2));
                    }
                }
                if (serverSide) {
                    assertThat(ports).as("the reads ran on both replicas")
                            .containsExactlyInAnyOrderElementsOf(cluster.replicas().stream().map(r -> r.port()).toList());
                } else {
                    // The text query is classified on its first 16 MiB, where its literal has not ended:
                    // not provably read-only, so the primary runs it.
                    assertThat(ports).containsExactly(cluster.primary().port());
                }
            }
            assertThat(blobRoundTrip(c, big.blob(), serverSide)).isEqualTo(big.directAnswer());
            assertThat(StatementResult.execute(c, "SELECT 'still in step'")).singleElement()
                    .extracting(r -> ((Rows) r).rows()).isEqualTo(List.of(List.of("still in step")));
        }
    }

    /**
     * A BLOB over one packet, its SHA-256, and {@link #blobRoundTrip} on a direct connection to the
     * primary: what the proxy must give back.
     */
    private record BigBlob(String options, byte[] blob, String digest, List<Object> directAnswer) {

        static BigBlob of(long seed, boolean serverSide) throws Exception {
            String options = "useServerPrepStmts=" + serverSide;
            byte[] blob = new byte[BLOB_SIZE];
            new Random(seed).nextBytes(blob);
            try (Connection c = direct(options)) {
                return new BigBlob(options, blob, sha256(blob), blobRoundTrip(c, blob, serverSide));
            }
        }
    }


    /**
     * Inserts the BLOB as one value (a command over 16 MiB) and, with server-side statements, as a
     * stream (COM_STMT_SEND_LONG_DATA chunks); reads it back once (a row over 16 MiB) and checks
     * what the server stored by its length and digest.
     */
    private static List<Object> blobRoundTrip(Connection c, byte[] blob, boolean serverSide)
            throws SQLException, NoSuchAlgorithmException {
        List<Object> out = new ArrayList<>();
        StatementResult.execute(c, "CREATE TEMPORARY TABLE big (id INT PRIMARY KEY, data LONGBLOB)");
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO big VALUES (?, ?)")) {
            insert.setInt(1, 1);
            insert.setBytes(2, blob);
            out.add(insert.executeUpdate());
            if (serverSide) {
                insert.setInt(1, 2);
                insert.setBinaryStream(2, new ByteArrayInputStream(blob), blob.length);
                out.add(insert.executeUpdate());
            }
        }
        try (PreparedStatement select = c.prepareStatement("SELECT LENGTH(data), SHA2(data, 256), data FROM big WHERE id = 1");
             ResultSet rs = select.executeQuery()) {
            assertThat(rs.next()).isTrue();
            out.add(rs.getLong(1));
            out.add(rs.getString(2));
            out.add(sha256(rs.getBytes(3)));
        }
        out.addAll(StatementResult.execute(c, "SELECT id, LENGTH(data), SHA2(data, 256) FROM big ORDER BY id"));
        return out;
    }

    private static String sha256(byte[] bytes) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    private static List<StatementResult> changeUsers(Connection c) throws SQLException {
        JdbcConnection jc = c.unwrap(JdbcConnection.class);
        String who = "SELECT CURRENT_USER(), USER(), DATABASE()";
        List<StatementResult> out = new ArrayList<>(StatementResult.execute(c, who));
        jc.changeUser(TestUsers.APP2_USER, TestUsers.APP2_PASSWORD);
        out.addAll(StatementResult.execute(c, who));
        out.addAll(StatementResult.execute(c, "SELECT COUNT(*) FROM mysql.user"));
        jc.changeUser(TestUsers.APP_USER, TestUsers.APP_PASSWORD);
        out.addAll(StatementResult.execute(c, who));
        try {
            jc.changeUser(TestUsers.APP2_USER, "wrong");
            out.add(StatementResult.value("changeUser with a wrong password", "accepted"));
        } catch (SQLException e) {
            out.add(new Failure(e.getErrorCode(), e.getSQLState(), e.getMessage()));
        }
        return out;
    }

    @Test
    void changeUserSwitchesTheBackendSessionsIdentity() throws SQLException {
        List<StatementResult> expected;
        try (Connection c = connect(cluster.primary().port(), TestUsers.TEST_SCHEMA)) {
            expected = changeUsers(c);
        }
        assertThat(expected.get(1)).extracting(r -> ((Rows) r).rows().getFirst().get(1)).asString().startsWith("app2@");
        assertThat(expected.get(2)).as("app2 may not read mysql.user").isInstanceOf(Failure.class);
        assertThat(expected.getLast()).isInstanceOf(Failure.class).extracting(r -> ((Failure) r).errorCode()).isEqualTo(1045);
        try (Connection c = connect(proxy.port(), TestUsers.TEST_SCHEMA)) {
            assertThat(changeUsers(c)).isEqualTo(expected);
        }
    }

    private static List<StatementResult> resetState(Connection c) throws SQLException {
        List<StatementResult> out = new ArrayList<>();
        out.addAll(StatementResult.execute(c, "SET @marker = 42, SESSION sql_mode = 'ANSI_QUOTES', SESSION wait_timeout = 77"));
        out.addAll(StatementResult.execute(c, "CREATE TEMPORARY TABLE gone (id INT)"));
        out.addAll(StatementResult.execute(c, "SELECT @marker, @@session.sql_mode, @@session.wait_timeout"));
        c.unwrap(JdbcConnection.class).resetServerState();
        out.addAll(StatementResult.execute(c, "SELECT @marker, IF(@@session.sql_mode = @@global.sql_mode, 'default', 'changed'),"
                + " IF(@@session.wait_timeout = @@global.wait_timeout, 'default', 'changed'), DATABASE()"));
        out.addAll(StatementResult.execute(c, "SELECT * FROM gone"));
        return out;
    }

    @Test
    void resetServerStateClearsTheSession() throws SQLException {
        List<StatementResult> expected;
        try (Connection c = direct("")) {
            expected = resetState(c);
        }
        assertThat(expected.get(3)).extracting(r -> ((Rows) r).rows().getFirst())
                .isEqualTo(java.util.Arrays.asList(null, "default", "default", SCHEMA));
        assertThat(expected.getLast()).isInstanceOf(Failure.class).extracting(r -> ((Failure) r).errorCode()).isEqualTo(1146);
        try (Connection c = through(proxy, "")) {
            assertThat(resetState(c)).isEqualTo(expected);
        }
    }

    /** Runs a long SLEEP under a one-second query timeout; returns how long it took and what was thrown. */
    private static List<Object> timedOut(int port) throws SQLException {
        try (Connection c = DriverManager.getConnection(ClientProxies.connectorJ(port, TestUsers.TEST_SCHEMA, ""),
                TestUsers.APP2_USER, TestUsers.APP2_PASSWORD);
             Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            long start = System.nanoTime();
            String outcome;
            try (ResultSet rs = s.executeQuery("SELECT SLEEP(6)")) {
                outcome = "finished";
            } catch (java.sql.SQLTimeoutException e) {
                outcome = "timed out";
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            List<StatementResult> after = StatementResult.execute(c, "SELECT 'usable' AS s");
            return List.of(outcome, millis, after);
        }
    }

    /**
     * Connector/J enforces a query timeout by opening a second connection and sending KILL QUERY
     * with the connection id from the server's greeting. As app2 (no privilege to kill others'
     * threads), so a KILL that names the wrong thread cannot hurt anyone else's session.
     */
    @Test
    void queryTimeoutStopsTheStatement() throws SQLException {
        List<Object> direct = timedOut(cluster.primary().port());
        assertThat(direct.get(0)).isEqualTo("timed out");
        assertThat((long) direct.get(1)).as("direct: the server stopped the SLEEP").isLessThan(4_500);
        List<Object> proxied = timedOut(proxy.port());
        assertThat(proxied.get(0)).isEqualTo("timed out");
        assertThat((long) proxied.get(1)).as("through the proxy: the KILL QUERY reached the session's backend thread")
                .isLessThan(4_500);
        assertThat(proxied.get(2)).isEqualTo(direct.get(2));
    }
}
