package dev.sluice.proxy.frontend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.mysql.cj.jdbc.JdbcConnection;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Session mode relays COM_CHANGE_USER to the session's backend connection. With the proxy's own
 * accounts, the new account must be one of them, as at login (the backend has others, an admin
 * among them), and the session is then that account's: its KILLs and who may KILL it.
 */
@ExtendWith(MariaDbClusterExtension.class)
class SessionChangeUserIT {

    private static ProxyServer proxy;

    @BeforeAll
    static void start(MariaDbCluster cluster) {
        proxy = ProxyFixture.start(ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary()))));
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void anAccountTheProxyDoesNotHaveIsRefusedAndTheSessionGoesOn() throws SQLException {
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = c.createStatement()) {
            SQLException refused = catchThrowableOfType(SQLException.class, () -> c.unwrap(JdbcConnection.class)
                    .changeUser(TestUsers.ADMIN_USER, TestUsers.ADMIN_PASSWORD));
            assertThat((Object) refused).as("a backend account outside users:").isNotNull();
            assertThat(refused.getErrorCode()).isEqualTo(1045);
            try (Connection again = ProxyFixture.connect(proxy, "sluice_test", "");
                 ResultSet rs = again.createStatement().executeQuery("SELECT CURRENT_USER()")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).startsWith(TestUsers.APP_USER + "@");
            }
        }
    }

    @Test
    void theNewAccountOwnsTheSession() throws SQLException {
        try (Connection changed = ProxyFixture.connect(proxy, "sluice_test", "");
             Connection other = DriverManager.getConnection(ProxyFixture.url(proxy, "sluice_test", ""),
                     TestUsers.APP2_USER, TestUsers.APP2_PASSWORD)) {
            long id = one(changed, "SELECT CONNECTION_ID()");
            changed.unwrap(JdbcConnection.class).changeUser(TestUsers.APP2_USER, TestUsers.APP2_PASSWORD);
            try (ResultSet rs = changed.createStatement().executeQuery("SELECT CURRENT_USER()")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).startsWith(TestUsers.APP2_USER + "@");
            }
            // app2 may kill its own sessions, this one included now; before, the proxy still took it for app's.
            try (Statement s = other.createStatement()) {
                s.execute("KILL QUERY " + id);
            }
        }
    }

    private static long one(Connection c, String sql) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }
}
