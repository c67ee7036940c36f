package dev.sluice.proxy.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.clients.StatementResult.Failure;
import dev.sluice.proxy.clients.StatementResult.Rows;
import dev.sluice.proxy.clients.StatementResult.UpdateCount;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MariaDB Connector/J through the proxy, compared with a direct connection: it negotiates MariaDB's
 * extended capabilities (bulk statements, cached metadata), pipelines COM_STMT_PREPARE with
 * COM_STMT_EXECUTE, and sends batches as one COM_STMT_BULK_EXECUTE.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MariaDbConnectorIT {

    private static final String SCHEMA = "mdb_it";

    private static MariaDbCluster cluster;
    private static ProxyServer proxy;

    @BeforeAll
    static void start(MariaDbCluster shared) throws SQLException {
        cluster = shared;
        ClientProxies.admin(cluster.primary(),
                "CREATE DATABASE IF NOT EXISTS " + SCHEMA,
                "CREATE OR REPLACE TABLE " + SCHEMA + ".kinds (id INT PRIMARY KEY, tiny TINYINT(1), small SMALLINT UNSIGNED,"
                        + " f FLOAT, d DOUBLE, dec10 DECIMAL(20,6), txt TEXT CHARACTER SET utf8mb4, bits BIT(12),"
                        + " y YEAR, t TIME(6), dt DATETIME(3), ts TIMESTAMP(6) NULL, e ENUM('red','green'),"
                        + " s SET('a','b','c'), j JSON, u UUID, bin VARBINARY(8))",
                "INSERT INTO " + SCHEMA + ".kinds WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)"
                        + " SELECT i, i % 2, i * 1000, i / 8, i / 3, i * 1234.567891, IF(i % 5 = 0, NULL, REPEAT('ä😀', i)),"
                        + " i * 37, 1990 + i, SEC_TO_TIME(i * 3601.5), TIMESTAMP'2020-01-01 00:00:00' + INTERVAL i DAY,"
                        + " TIMESTAMP'2021-06-01 12:00:00.123456' + INTERVAL i MINUTE, IF(i % 2 = 0, 'red', 'green'),"
                        + " IF(i % 3 = 0, 'a,c', 'b'), JSON_OBJECT('i', i, 'tags', JSON_ARRAY('x', i)),"
                        + " CONCAT('123e4567-e89b-12d3-a456-', LPAD(i, 12, '0')), UNHEX(LPAD(HEX(i), 16, '0')) FROM n",
                "CREATE OR REPLACE PROCEDURE " + SCHEMA + ".two_sets(IN n INT, OUT total INT)"
                        + " BEGIN SELECT id, txt FROM " + SCHEMA + ".kinds WHERE id <= n ORDER BY id;"
                        + " SELECT COUNT(*) AS c, n * 2 AS doubled FROM " + SCHEMA + ".kinds;"
                        + " SET total = n * 10; END");
        proxy = ProxyFixture.start(ClientProxies.localInfile(ClientProxies.primaryOnly(cluster), true));
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    private static List<StatementResult> sameBothWays(String options, Scenario scenario) throws SQLException {
        return scenario.sameBothWays(ClientProxies.mariaDb(cluster.primary().port(), SCHEMA, options),
                ClientProxies.mariaDb(proxy.port(), SCHEMA, options), TestUsers.APP_USER, TestUsers.APP_PASSWORD);
    }

    @ParameterizedTest
    @ValueSource(strings = {"useServerPrepStmts=false", "useServerPrepStmts=true"})
    void everyColumnTypeReadsTheSame(String options) throws SQLException {
        List<StatementResult> results = sameBothWays(options, c -> {
            List<StatementResult> out = new ArrayList<>(StatementResult.execute(c, "SELECT * FROM kinds ORDER BY id"));
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM kinds WHERE id > ? ORDER BY id DESC")) {
                // Executed again, the statement reuses cached metadata: the server may skip sending it.
                for (int from : new int[] {30, 35, 39}) {
                    ps.setInt(1, from);
                    try (ResultSet rs = ps.executeQuery()) {
                        out.add(StatementResult.rows(rs));
                    }
                }
            }
            return out;
        });
        assertThat(((Rows) results.getFirst()).rows()).hasSize(40);
        assertThat(((Rows) results.get(1)).columns()).hasSize(17);
        assertThat(((Rows) results.getLast()).rows()).hasSize(1);
    }

    @Test
    void pipelinedPrepareAndExecute() throws SQLException {
        Scenario scenario = c -> {
            List<StatementResult> out = new ArrayList<>();
            out.addAll(StatementResult.execute(c, "CREATE TEMPORARY TABLE p (id INT PRIMARY KEY, v VARCHAR(20), at DATETIME(6))"));
            for (int i = 1; i <= 20; i++) {
                // A new statement text each time: prepare and execute go out together (execute with id -1).
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO p VALUES (?, ?, ?) /* " + i + " */")) {
                    ps.setInt(1, i);
                    ps.setString(2, i % 4 == 0 ? null : "v" + i);
                    ps.setObject(3, LocalDateTime.of(2024, 1, 1, 0, 0).plusSeconds(i * 1001L).plusNanos(i * 1000L));
                    out.add(new UpdateCount(ps.executeUpdate()));
                }
            }
            try (PreparedStatement broken = c.prepareStatement("SELEC ? FROM p")) {
                broken.setInt(1, 1);
                broken.executeQuery();
            } catch (SQLException e) {
                out.add(new Failure(e.getErrorCode(), e.getSQLState(), "prepare failed"));
            }
            try (PreparedStatement duplicate = c.prepareStatement("INSERT INTO p (id) VALUES (?)")) {
                duplicate.setInt(1, 1);
                duplicate.executeUpdate();
            } catch (SQLException e) {
                out.add(Failure.of(e));
            }
            try (PreparedStatement select = c.prepareStatement("SELECT id, v, at FROM p WHERE id % ? = 0 ORDER BY id")) {
                for (int m : new int[] {2, 3, 5}) {
                    select.setInt(1, m);
                    try (ResultSet rs = select.executeQuery()) {
                        out.add(StatementResult.rows(rs));
                    }
                }
            }
            return out;
        };
        long preparesBefore = cluster.primary().globalStatus("Com_stmt_prepare");
        List<StatementResult> results = sameBothWays("useServerPrepStmts=true", scenario);
        assertThat(cluster.primary().globalStatus("Com_stmt_prepare") - preparesBefore)
                .as("server-side prepares, both runs").isGreaterThanOrEqualTo(2 * 22);
        assertThat(results).filteredOn(Failure.class::isInstance).extracting(r -> ((Failure) r).errorCode())
                .containsExactly(1064, 1062);
        assertThat(((Rows) results.get(results.size() - 3)).rows()).hasSize(10);
    }

    @ParameterizedTest
    @ValueSource(strings = {"useBulkStmts=true&useBulkStmtsForInserts=true&useServerPrepStmts=true",
            "useBulkStmts=true&useBulkStmtsForInserts=true&useServerPrepStmts=false",
            "useBulkStmts=false&useBulkStmtsForInserts=false"})
    void batchesWithAndWithoutBulkExecute(String options) throws SQLException {
        Scenario scenario = c -> {
            List<StatementResult> out = new ArrayList<>();
            out.addAll(StatementResult.execute(c,
                    "CREATE TEMPORARY TABLE b (id INT AUTO_INCREMENT PRIMARY KEY, label VARCHAR(40), amount DECIMAL(8,2))"));
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO b (label, amount) VALUES (?, ?)")) {
                for (int i = 0; i < 1000; i++) {
                    insert.setString(1, i % 10 == 0 ? null : "row " + i);
                    insert.setBigDecimal(2, BigDecimal.valueOf(i, 2));
                    insert.addBatch();
                }
                for (long count : insert.executeLargeBatch()) {
                    out.add(new UpdateCount(count));
                }
            }
            try (PreparedStatement update = c.prepareStatement("UPDATE b SET amount = amount + ? WHERE id % 100 = ?")) {
                for (int i = 0; i < 5; i++) {
                    update.setBigDecimal(1, BigDecimal.ONE);
                    update.setInt(2, i);
                    update.addBatch();
                }
                for (long count : update.executeLargeBatch()) {
                    out.add(new UpdateCount(count));
                }
            }
            out.addAll(StatementResult.execute(c, "SELECT COUNT(*), COUNT(label), SUM(amount), MAX(id) FROM b"));
            return out;
        };
        Map<String, Long> before = cluster.primary().globalStatus();
        List<StatementResult> results = sameBothWays(options, scenario);
        Map<String, Long> after = cluster.primary().globalStatus();
        assertThat(((Rows) results.getLast()).rows().getFirst().getFirst()).isEqualTo(1000L);
        long executes = after.get("Com_stmt_execute") - before.get("Com_stmt_execute");
        if (options.startsWith("useBulkStmts=true") && options.endsWith("useServerPrepStmts=true")) {
            // One COM_STMT_BULK_EXECUTE per batch (the server counts it as one execute); without the
            // bulk capability the driver would fall back to 1,005 pipelined executes a run.
            assertThat(executes).as("statement executions of both runs: the batches went as bulk commands")
                    .isLessThan(100);
        }
    }

    @Test
    void multiStatementsAndAStoredProcedure() throws SQLException {
        for (String options : List.of("allowMultiQueries=true&useServerPrepStmts=false", "useServerPrepStmts=true")) {
            List<StatementResult> results = sameBothWays(options, c -> {
                List<StatementResult> out = new ArrayList<>();
                if (options.startsWith("allowMultiQueries")) {
                    // No error in the middle: after one, Connector/J 3.5.7 hangs on its next command even
                    // on a direct connection (errors inside multi-statements are covered with mysql-connector-j).
                    out.addAll(StatementResult.execute(c, "CREATE TEMPORARY TABLE m (id INT PRIMARY KEY);"
                            + " INSERT INTO m VALUES (1), (2); SELECT * FROM m; UPDATE m SET id = id + 10 WHERE id = 2;"
                            + " SELECT id FROM m ORDER BY id"));
                }
                try (CallableStatement call = c.prepareCall("{call two_sets(?, ?)}")) {
                    for (int n : new int[] {3, 1}) {
                        call.setInt(1, n);
                        call.registerOutParameter(2, Types.INTEGER);
                        out.addAll(StatementResult.all(call, call.execute()));
                        out.add(StatementResult.value("total", call.getInt(2)));
                    }
                }
                out.addAll(StatementResult.execute(c, "SELECT 'after' AS s"));
                return out;
            });
            assertThat(results).as(options).anySatisfy(r -> assertThat(r).isEqualTo(StatementResult.value("total", 30)));
            assertThat(((Rows) results.getLast()).rows()).containsExactly(List.of("after"));
        }
    }

    @Test
    void loadDataLocalInfile(@TempDir Path dir) throws Exception {
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= 5000; i++) {
            text.append(i).append(',').append("\"name ").append(i).append(" ö\"").append('\n');
        }
        Path file = dir.resolve("rows.csv");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        List<StatementResult> results = sameBothWays("allowLocalInfile=true", c -> {
            List<StatementResult> out = new ArrayList<>();
            out.addAll(StatementResult.execute(c, "CREATE TEMPORARY TABLE l (id INT PRIMARY KEY, name VARCHAR(40))"));
            out.addAll(StatementResult.execute(c, "LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE l CHARACTER SET utf8mb4"
                    + " FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"'"));
            out.addAll(StatementResult.execute(c, "SELECT COUNT(*), MAX(name), SUM(id) FROM l"));
            return out;
        });
        assertThat(results.get(1)).isEqualTo(new UpdateCount(5000));
    }

    @Test
    void tlsToTheProxy() throws SQLException {
        try (ProxyServer tlsProxy = ProxyFixture.start(ClientProxies.clientTls(ClientProxies.primaryOnly(cluster), true))) {
            String url = ClientProxies.mariaDb(tlsProxy.port(), SCHEMA, "sslMode=trust&useServerPrepStmts=true");
            try (Connection c = DriverManager.getConnection(url, TestUsers.APP_USER, TestUsers.APP_PASSWORD)) {
                assertThat(StatementResult.execute(c, "SELECT COUNT(*) FROM kinds")).singleElement()
                        .extracting(r -> ((Rows) r).rows()).isEqualTo(List.of(List.of(40L)));
                try (PreparedStatement ps = c.prepareStatement("SELECT txt FROM kinds WHERE id = ?")) {
                    ps.setInt(1, 3);
                    try (ResultSet rs = ps.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getString(1)).isEqualTo("ä😀".repeat(3));
                    }
                }
            }
            String plain = ClientProxies.mariaDb(tlsProxy.port(), SCHEMA, "sslMode=disable");
            assertThatThrownBy(() -> DriverManager.getConnection(plain, TestUsers.APP_USER, TestUsers.APP_PASSWORD))
                    .as("tls.client.required refuses a client without TLS")
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(3159));
        }
    }
}
