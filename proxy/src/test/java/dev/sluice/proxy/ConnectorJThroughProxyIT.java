package dev.sluice.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * mysql-connector-j through the proxy (users configured, so the proxy authenticates), compared
 * with a direct connection to the same MariaDB.
 */
@ExtendWith(MariaDbClusterExtension.class)
class ConnectorJThroughProxyIT {

    private static ProxyServer proxy;
    private static MariaDbCluster cluster;

    @BeforeAll
    static void start(MariaDbCluster shared) throws SQLException {
        cluster = shared;
        proxy = ProxyFixture.start(ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary()))));
        try (Connection c = cluster.primary().openAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS proxy_it");
            s.execute("CREATE OR REPLACE TABLE proxy_it.items (id INT PRIMARY KEY, name VARCHAR(64) CHARACTER SET utf8mb4,"
                    + " price DECIMAL(10,2), at DATETIME(6), data BLOB)");
            s.execute("INSERT INTO proxy_it.items VALUES (1, 'Grüße, 世界 😀', 12.50, '2024-02-29 13:45:59.123456', x'00ff10'),"
                    + " (2, NULL, NULL, NULL, NULL), (3, '', -0.01, '1970-01-01 00:00:00', x'')");
        }
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    private static List<List<Object>> rows(Connection c, String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    Object value = rs.getObject(i);
                    row.add(value instanceof byte[] bytes ? java.util.HexFormat.of().formatHex(bytes) : value);
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static Connection direct(String options) throws SQLException {
        return DriverManager.getConnection(cluster.primary().jdbcUrl("proxy_it") + "&" + options,
                TestUsers.APP_USER, TestUsers.APP_PASSWORD);
    }

    @Test
    void textQueriesReturnTheSameRowsAsADirectConnection() throws SQLException {
        String sql = "SELECT id, name, price, at, data FROM items ORDER BY id";
        try (Connection viaProxy = ProxyFixture.connect(proxy, "proxy_it", "");
             Connection plain = direct("sslMode=DISABLED")) {
            List<List<Object>> expected = rows(plain, sql);
            assertThat(expected).hasSize(3);
            assertThat(rows(viaProxy, sql)).isEqualTo(expected);
            assertThat(rows(viaProxy, "SELECT @@version, DATABASE(), CURRENT_USER()"))
                    .isEqualTo(rows(plain, "SELECT @@version, DATABASE(), CURRENT_USER()"));
        }
    }

    @Test
    void serverSidePreparedStatementsAndCursors() throws SQLException {
        for (String options : List.of("useServerPrepStmts=true", "useServerPrepStmts=true&useCursorFetch=true&defaultFetchSize=1",
                "useServerPrepStmts=false")) {
            try (Connection c = ProxyFixture.connect(proxy, "proxy_it", options);
                 PreparedStatement ps = c.prepareStatement("SELECT name, price FROM items WHERE id > ? ORDER BY id")) {
                ps.setInt(1, 0);
                List<String> names = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        names.add(rs.getString(1));
                    }
                }
                assertThat(names).as(options).containsExactly("Grüße, 世界 😀", null, "");
            }
        }
    }

    @Test
    void writesTransactionsAndErrors() throws SQLException {
        try (Connection c = ProxyFixture.connect(proxy, "proxy_it", "useServerPrepStmts=true")) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO items (id, name) VALUES (?, ?)")) {
                ps.setInt(1, 100);
                ps.setString(2, "in a transaction");
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
            c.rollback();
            c.setAutoCommit(true);
            assertThat(rows(c, "SELECT COUNT(*) FROM items WHERE id = 100")).containsExactly(List.of(0L));
            assertThatThrownBy(() -> {
                try (Statement s = c.createStatement()) {
                    s.execute("SELEC 1");
                }
            }).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1064));
            assertThat(rows(c, "SELECT 1")).containsExactly(List.of(1));
        }
    }

    @Test
    void wrongPasswordAndUnknownUserGetAccessDenied() {
        assertThatThrownBy(() -> DriverManager.getConnection(ProxyFixture.url(proxy, null, ""), TestUsers.APP_USER, "wrong"))
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1045))
                .hasMessageContaining("Access denied for user 'app'@'127.0.0.1' (using password: YES)");
        assertThatThrownBy(() -> DriverManager.getConnection(ProxyFixture.url(proxy, null, ""), "nobody", "x"))
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1045))
                .hasMessageContaining("Access denied for user 'nobody'@'127.0.0.1'");
    }

    @Test
    void unknownDatabaseIsReportedByTheBackend() {
        assertThatThrownBy(() -> ProxyFixture.connect(proxy, "no_such_db", ""))
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1049));
    }
}
