package dev.sluice.proxy.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.clients.StatementResult.Failure;
import dev.sluice.proxy.clients.StatementResult.Rows;
import dev.sluice.proxy.clients.StatementResult.UpdateCount;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.math.BigDecimal;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * mysql-connector-j statements through the proxy, each scenario run once directly against the
 * primary and once through the proxy with the same driver options: the results (column types,
 * values, update counts, errors) must be identical. Scenarios work on temporary tables so both
 * runs start from the same state.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConnectorJStatementsIT {

    private static final String SCHEMA = "cj_it";
    private static final int ITEMS = 60;

    private static MariaDbCluster cluster;
    private static ProxyServer proxy;

    @BeforeAll
    static void start(MariaDbCluster shared) throws SQLException {
        cluster = shared;
        ClientProxies.admin(cluster.primary(),
                "CREATE DATABASE IF NOT EXISTS " + SCHEMA,
                "CREATE OR REPLACE TABLE " + SCHEMA + ".items (id INT PRIMARY KEY, name VARCHAR(64) CHARACTER SET utf8mb4,"
                        + " price DECIMAL(10,2), at DATETIME(6), day DATE, ratio DOUBLE, flag BOOLEAN,"
                        + " big BIGINT UNSIGNED, data VARBINARY(32))",
                "INSERT INTO " + SCHEMA + ".items WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < "
                        + ITEMS + ") SELECT n, IF(n % 7 = 0, NULL, CONCAT('item ', n, ' Grüße 😀')), n * 1.25,"
                        + " TIMESTAMP'2024-02-29 13:45:59.123456' + INTERVAL n HOUR, DATE'2000-01-01' + INTERVAL n DAY,"
                        + " n / 3, n % 2, 18446744073709551615 - n, UNHEX(SHA2(n, 224)) FROM s",
                "CREATE OR REPLACE PROCEDURE " + SCHEMA + ".two_sets(IN n INT, OUT total INT)"
                        + " BEGIN SELECT id, name, price FROM " + SCHEMA + ".items WHERE id <= n ORDER BY id;"
                        + " SELECT COUNT(*) AS c, n * 2 AS doubled FROM " + SCHEMA + ".items;"
                        + " SET total = n * 10; END");
        proxy = ProxyFixture.start(ClientProxies.primaryOnly(cluster));
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    /** Runs the scenario directly and through the proxy; returns the proxy's results once equal. */
    static List<StatementResult> sameBothWays(String options, Scenario scenario) throws SQLException {
        return scenario.sameBothWays(ClientProxies.connectorJ(cluster.primary().port(), SCHEMA, options),
                ClientProxies.connectorJ(proxy.port(), SCHEMA, options), TestUsers.APP_USER, TestUsers.APP_PASSWORD);
    }

    @ParameterizedTest
    @ValueSource(strings = {"useServerPrepStmts=true", "useServerPrepStmts=true&cachePrepStmts=true",
            "useServerPrepStmts=false", "useServerPrepStmts=false&cachePrepStmts=true"})
    void preparedStatementsGiveTheSameResults(String options) throws SQLException {
        List<StatementResult> results = sameBothWays(options, c -> {
            List<StatementResult> out = new ArrayList<>();
            out.addAll(StatementResult.execute(c, "CREATE TEMPORARY TABLE t LIKE items"));
            for (int round = 0; round < 2; round++) {
                // Closing and preparing again is where cachePrepStmts reuses the server statement.
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                    for (int i = 1; i <= 3; i++) {
                        int id = round * 10 + i;
                        insert.setInt(1, id);
                        insert.setString(2, i == 2 ? null : "p" + id + " ünï 世界");
                        insert.setBigDecimal(3, new BigDecimal("12.34").multiply(BigDecimal.valueOf(id)));
                        insert.setObject(4, LocalDateTime.of(2024, 2, 29, 23, 59, 59, 999_999_000));
                        insert.setObject(5, LocalDate.of(1999, 12, 31).plusDays(id));
                        insert.setDouble(6, id / 7.0);
                        insert.setBoolean(7, i % 2 == 0);
                        insert.setLong(8, Long.MAX_VALUE - id);
                        insert.setBytes(9, new byte[] {0, (byte) 0xFF, (byte) id, 0x27, 0x5C});
                        out.add(new UpdateCount(insert.executeUpdate()));
                    }
                }
            }
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT id, name, price, at, day, ratio, flag, big, data FROM items WHERE id BETWEEN ? AND ? ORDER BY id")) {
                for (int[] range : new int[][] {{1, 10}, {50, 70}, {100, 200}}) {
                    select.setInt(1, range[0]);
                    select.setInt(2, range[1]);
                    try (ResultSet rs = select.executeQuery()) {
                        out.add(StatementResult.rows(rs));
                    }
                }
            }
            try (PreparedStatement expressions = c.prepareStatement("SELECT ? + 1, ?, CAST(? AS DECIMAL(6,3)), ? IS NULL")) {
                expressions.setLong(1, 41);
                expressions.setString(2, "quote ' backslash \\ nul \0 end");
                expressions.setString(3, "3.14159");
                expressions.setNull(4, Types.VARCHAR);
                try (ResultSet rs = expressions.executeQuery()) {
                    out.add(StatementResult.rows(rs));
                }
            }
            try (PreparedStatement update = c.prepareStatement("UPDATE t SET price = price + ? WHERE id > ?")) {
                update.setBigDecimal(1, new BigDecimal("0.01"));
                update.setInt(2, 2);
                out.add(new UpdateCount(update.executeUpdate()));
                update.setInt(2, 1000);
                out.add(new UpdateCount(update.executeUpdate()));
            }
            try (PreparedStatement duplicate = c.prepareStatement("INSERT INTO t (id) VALUES (?)")) {
                duplicate.setInt(1, 1);
                duplicate.executeUpdate();
            } catch (SQLException e) {
                out.add(Failure.of(e));
            }
            out.addAll(StatementResult.execute(c, "SELECT * FROM t ORDER BY id"));
            return out;
        });
        assertThat(results).filteredOn(Failure.class::isInstance).singleElement()
                .extracting(r -> ((Failure) r).errorCode()).isEqualTo(1062);
        assertThat(((Rows) results.getLast()).rows()).hasSize(6);
        assertThat(((Rows) results.get(7)).rows()).as("ids 1..10").hasSize(10);
    }

    @Test
    void cursorFetchReadsEveryRowThroughCursors() throws SQLException {
        String options = "useServerPrepStmts=true&useCursorFetch=true&defaultFetchSize=7";
        Scenario twoCursors = c -> {
            List<StatementResult> out = new ArrayList<>();
            try (PreparedStatement odd = c.prepareStatement("SELECT id, name, at FROM items WHERE id % 2 = ? ORDER BY id");
                 PreparedStatement even = c.prepareStatement("SELECT id, price, data FROM items WHERE id % 2 = ? ORDER BY id")) {
                odd.setInt(1, 1);
                even.setInt(1, 0);
                // Interleaved so that COM_STMT_FETCH alternates between two open cursors.
                try (ResultSet a = odd.executeQuery(); ResultSet b = even.executeQuery()) {
                    List<List<Object>> rows = new ArrayList<>();
                    boolean moreA = true;
                    boolean moreB = true;
                    while (moreA || moreB) {
                        moreA = moreA && a.next();
                        if (moreA) {
                            rows.add(List.of("odd", a.getInt(1), String.valueOf(a.getString(2)), a.getObject(3)));
                        }
                        moreB = moreB && b.next();
                        if (moreB) {
                            rows.add(List.of("even", b.getInt(1), b.getBigDecimal(2), java.util.HexFormat.of().formatHex(b.getBytes(3))));
                        }
                    }
                    out.add(new Rows(List.of(), rows));
                }
            }
            return out;
        };
        long fetchesBefore = cluster.primary().globalStatus("Com_stmt_fetch");
        List<StatementResult> results = sameBothWays(options, twoCursors);
        long fetches = cluster.primary().globalStatus("Com_stmt_fetch") - fetchesBefore;
        assertThat(((Rows) results.getFirst()).rows()).hasSize(ITEMS);
        // 30 rows per cursor at 7 a fetch is 5 fetches per cursor and run; both runs are counted.
        assertThat(fetches).as("COM_STMT_FETCH commands seen by the primary").isGreaterThanOrEqualTo(2 * 2 * 5);
    }

    @ParameterizedTest
    @ValueSource(strings = {"rewriteBatchedStatements=true", "rewriteBatchedStatements=true&useServerPrepStmts=true",
            "rewriteBatchedStatements=false&useServerPrepStmts=true", "rewriteBatchedStatements=true&allowMultiQueries=true"})
    void batchInsertsGiveTheSameCountsAndKeys(String options) throws SQLException {
        List<StatementResult> results = sameBothWays(options, c -> {
            List<StatementResult> out = new ArrayList<>();
            out.addAll(StatementResult.execute(c,
                    "CREATE TEMPORARY TABLE b (id INT AUTO_INCREMENT PRIMARY KEY, label VARCHAR(40), amount DECIMAL(8,2))"));
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO b (label, amount) VALUES (?, ?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                for (int i = 0; i < 500; i++) {
                    insert.setString(1, "row " + i);
                    insert.setBigDecimal(2, BigDecimal.valueOf(i, 2));
                    insert.addBatch();
                }
                for (int count : insert.executeBatch()) {
                    out.add(new UpdateCount(count));
                }
                try (ResultSet keys = insert.getGeneratedKeys()) {
                    out.add(StatementResult.rows(keys));
                }
            }
            try (Statement statement = c.createStatement()) {
                statement.addBatch("INSERT INTO b (label) VALUES ('a'), ('b')");
                statement.addBatch("UPDATE b SET amount = amount * 2 WHERE id <= 100");
                statement.addBatch("DELETE FROM b WHERE id > 490");
                for (int count : statement.executeBatch()) {
                    out.add(new UpdateCount(count));
                }
            }
            out.addAll(StatementResult.execute(c, "SELECT COUNT(*), SUM(amount), MAX(id) FROM b"));
            return out;
        });
        assertThat(results.getLast()).isInstanceOf(Rows.class);
        // 500 + 2 rows, then the DELETE takes ids 491 to 502.
        assertThat(((Rows) results.getLast()).rows().getFirst().getFirst()).isEqualTo(490L);
    }

    @Test
    void multiStatementsReturnEveryResultAndStopAtAnError() throws SQLException {
        List<StatementResult> results = sameBothWays("allowMultiQueries=true", c -> {
            List<StatementResult> out = new ArrayList<>();
            out.addAll(StatementResult.execute(c, "CREATE TEMPORARY TABLE m (id INT PRIMARY KEY, v VARCHAR(10));"
                    + " INSERT INTO m VALUES (1, 'one'), (2, 'two'), (3, NULL); SELECT * FROM m ORDER BY id;"
                    + " UPDATE m SET v = 'x' WHERE id > 1; SELECT v, COUNT(*) FROM m GROUP BY v ORDER BY v; DO 1"));
            out.addAll(StatementResult.execute(c, "SELECT 1 AS a; SELEC 2; SELECT 3"));
            out.addAll(StatementResult.execute(c, "SELECT 'still here' AS s"));
            return out;
        });
        assertThat(results).hasSize(8);
        assertThat(results).filteredOn(Failure.class::isInstance).singleElement()
                .extracting(r -> ((Failure) r).errorCode()).isEqualTo(1064);
        assertThat(((Rows) results.getLast()).rows()).containsExactly(List.of("still here"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"useServerPrepStmts=false", "useServerPrepStmts=true"})
    void storedProcedureWithTwoResultSetsAndAnOutParameter(String options) throws SQLException {
        List<StatementResult> results = sameBothWays(options, c -> {
            List<StatementResult> out = new ArrayList<>();
            try (CallableStatement call = c.prepareCall("{call two_sets(?, ?)}")) {
                for (int n : new int[] {5, 2}) {
                    call.setInt(1, n);
                    call.registerOutParameter(2, Types.INTEGER);
                    out.addAll(StatementResult.all(call, call.execute()));
                    out.add(StatementResult.value("total", call.getInt(2)));
                }
            }
            out.addAll(StatementResult.execute(c, "SELECT 'after the call' AS s"));
            return out;
        });
        List<Rows> sets = results.stream().filter(Rows.class::isInstance).map(Rows.class::cast).toList();
        assertThat(sets.getFirst().rows()).hasSize(5);
        assertThat(sets).anySatisfy(r -> assertThat(r.rows()).containsExactly(List.of(50)));
        assertThat(sets).anySatisfy(r -> assertThat(r.rows()).containsExactly(List.of(20)));
    }
}
