package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TimeoutsConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A procedure can change what no session-tracking entry names. One backend connection and one
 * event loop make every session of the test share the same connection, so anything left on it
 * shows up in the next session.
 */
@ExtendWith(MariaDbClusterExtension.class)
class CallStateIT {

    private static ProxyServer proxy;

    @BeforeAll
    static void start(MariaDbCluster cluster) throws SQLException {
        try (Connection c = cluster.primary().openAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE OR REPLACE PROCEDURE sluice_test.set_tenant(IN t VARCHAR(20))"
                    + " BEGIN SET @tenant = t; SET SESSION time_zone = '+03:00'; END");
            s.execute("CREATE OR REPLACE PROCEDURE sluice_test.only_tenant(IN t VARCHAR(20)) BEGIN SET @tenant = t; END");
            s.execute("CREATE OR REPLACE PROCEDURE sluice_test.tenant_then_fail(IN t VARCHAR(20))"
                    + " BEGIN SET @tenant = t; SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'after the tenant'; END");
            s.execute("CREATE TABLE IF NOT EXISTS sluice_test.call_rows (id INT AUTO_INCREMENT PRIMARY KEY, v INT)");
        }
        BackendConfig primary = ProxyFixture.backend(cluster.primary());
        BackendConfig single = new BackendConfig(primary.name(), primary.address(), primary.role(), 1, 1);
        TimeoutsConfig d = TimeoutsConfig.defaults();
        SluiceConfig config = ProxyFixture.config(List.of(single))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN))
                .withEventLoops(1)
                .withTimeouts(new TimeoutsConfig(d.connect(), d.handshake(), d.clientIdle(), Duration.ofSeconds(2),
                        d.poolIdle(), d.shutdown(), d.backendRetry()));
        proxy = ProxyFixture.start(config);
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void aProcedureSettingAUserAndASessionVariableLeavesNeitherForTheNextSession() throws SQLException {
        for (String call : List.of("CALL set_tenant('acme')", "CALL only_tenant('acme')")) {
            try (Connection a = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = a.createStatement()) {
                s.execute(call);
                assertThat(one(s, "SELECT @tenant")).as("%s: the session keeps what it set", call).isEqualTo("acme");
                if (call.contains("set_tenant")) {
                    assertThat(one(s, "SELECT @@session.time_zone")).isEqualTo("+03:00");
                }
            }
            try (Connection b = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = b.createStatement()) {
                assertThat(one(s, "SELECT @tenant")).as("%s: the next session on that connection", call).isNull();
                assertThat(one(s, "SELECT @@session.time_zone")).isNotEqualTo("+03:00");
            }
        }
    }

    /** A procedure that fails after setting @tenant, alone or in a multi-statement, still set it. */
    @Test
    void aFailingProcedureOrMultiStatementLeavesNothingForTheNextSession() throws SQLException {
        for (String call : List.of("CALL tenant_then_fail('acme')", "SELECT @tenant := 'acme'; SELECT * FROM no_such_table")) {
            try (Connection a = ProxyFixture.connect(proxy, "sluice_test", "allowMultiQueries=true");
                 Statement s = a.createStatement()) {
                try {
                    s.execute(call);
                    while (s.getMoreResults() || s.getUpdateCount() != -1) {
                        // drains the results before the error
                    }
                } catch (SQLException expected) {
                    // the error is the point: what ran before it stays
                }
                assertThat(one(s, "SELECT @tenant")).as("%s: the session keeps what it set", call).isEqualTo("acme");
                long id = a.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).getId();
                assertThat(proxy.runtime().session(id).orElseThrow().pins())
                        .as("%s: the connection that has @tenant stays with the session", call).isNotEmpty();
            }
            try (Connection b = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = b.createStatement()) {
                assertThat(one(s, "SELECT @tenant")).as("%s: the next session on that connection", call).isNull();
            }
        }
    }

    /**
     * The other side of pinning whatever a statement cannot explain: an ordinary write or read must
     * not pin, or the single connection would stay with a session that sits idle.
     */
    @Test
    void ordinaryStatementsLeaveTheConnectionFree() throws SQLException {
        try (Connection a = ProxyFixture.connect(proxy, "sluice_test", "");
             Statement s = a.createStatement();
             Connection b = ProxyFixture.connect(proxy, "sluice_test", "");
             Statement t = b.createStatement()) {
            s.execute("SET SESSION sql_mode = 'ANSI_QUOTES'");
            s.executeUpdate("INSERT INTO call_rows (v) VALUES (1)");
            s.execute("SELECT COUNT(*) FROM call_rows");
            s.execute("USE sluice_test");
            assertThat(one(t, "SELECT 'b can run'")).isEqualTo("b can run");
            assertThat(one(s, "SELECT @@session.sql_mode")).isEqualTo("ANSI_QUOTES");
        }
    }

    private static String one(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1);
        }
    }
}
