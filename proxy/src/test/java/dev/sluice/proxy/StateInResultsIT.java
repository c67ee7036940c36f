package dev.sluice.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A stored function can change session state from inside a SELECT. With CLIENT_DEPRECATE_EOF
 * the result ends with an OK that reports it; the mariadb client library's results end with an
 * EOF, whose status has the state-changed flag and nothing more (the server reports the entries
 * in the next OK). One backend connection and one event loop make every session share the
 * connection, so state left on it shows in the next session.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(60)
class StateInResultsIT {

    private static ProxyServer proxy;
    private static String globalTimeZone;

    @BeforeAll
    static void start(MariaDbCluster cluster) throws SQLException {
        try (Connection c = cluster.primary().openAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE OR REPLACE FUNCTION sluice_test.enter_tenant(t VARCHAR(20)) RETURNS INT NO SQL"
                    + " BEGIN SET @tenant = t; SET SESSION time_zone = '+03:00'; RETURN 1; END");
            try (ResultSet rs = s.executeQuery("SELECT @@global.time_zone")) {
                assertThat(rs.next()).isTrue();
                globalTimeZone = rs.getString(1);
            }
        }
        proxy = ProxyFixture.start(ProxyFixture.splitOnOneConnection(cluster));
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    private static final String READ_STATE = "SELECT @@session.time_zone, @tenant";

    @Test
    void aFunctionsStateStaysWithItsSessionWithResultsEndingInEof() throws IOException {
        List<String> seen = new ArrayList<>();
        try (RawClient a = new RawClient(proxy.port())) {
            assertThat(a.login(TestUsers.APP_USER, TestUsers.APP_PASSWORD, "sluice_test").header()).isZero();
            assertThat(a.firstRow("SELECT enter_tenant('acme')")).containsExactly("1");
            seen.addAll(a.firstRow(READ_STATE));
        }
        try (RawClient b = new RawClient(proxy.port())) {
            assertThat(b.login(TestUsers.APP_USER, TestUsers.APP_PASSWORD, "sluice_test").header()).isZero();
            seen.addAll(b.firstRow(READ_STATE));
        }
        assertThat(seen).as("the session's own, then the next session's").isEqualTo(expected());
    }

    @Test
    void aFunctionsStateStaysWithItsSessionWithResultsEndingInOk() throws SQLException {
        List<String> seen = new ArrayList<>();
        try (Connection a = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = a.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT enter_tenant('acme')")) {
                assertThat(rs.next()).isTrue();
            }
            seen.addAll(row(s));
        }
        try (Connection b = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = b.createStatement()) {
            seen.addAll(row(s));
        }
        assertThat(seen).as("the session's own, then the next session's").isEqualTo(expected());
    }

    private static List<String> expected() {
        return Arrays.asList("+03:00", "acme", globalTimeZone, null);
    }

    private static List<String> row(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery(READ_STATE)) {
            assertThat(rs.next()).isTrue();
            return Arrays.asList(rs.getString(1), rs.getString(2));
        }
    }
}
