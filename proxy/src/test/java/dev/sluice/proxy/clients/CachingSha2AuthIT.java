package dev.sluice.proxy.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mysql.cj.jdbc.JdbcConnection;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.clients.StatementResult.Rows;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * mysql-connector-j logging in with caching_sha2_password, which the proxy serves itself (the
 * MariaDB backends do not have it). Like MySQL's cache, a fresh proxy knows no user: the first login
 * needs full authentication (RSA without TLS, the password in clear over TLS), later ones succeed
 * with the fast scramble alone. Which path ran is visible from outside: without TLS and without
 * allowPublicKeyRetrieval, Connector/J can only finish a fast authentication.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CachingSha2AuthIT {

    private static final String SHA2 = "defaultAuthenticationPlugin=caching_sha2_password&socketTimeout=" + ClientProxies.SOCKET_TIMEOUT_MILLIS;
    /** Fast authentication only: a full one would need the server's RSA key, which this forbids. */
    private static final String FAST_ONLY = "jdbc:mysql://127.0.0.1:%d/?sslMode=DISABLED&allowPublicKeyRetrieval=false&" + SHA2;
    private static final String RSA = "jdbc:mysql://127.0.0.1:%d/?sslMode=DISABLED&allowPublicKeyRetrieval=true&" + SHA2;
    private static final String TLS = "jdbc:mysql://127.0.0.1:%d/?sslMode=REQUIRED&" + SHA2;

    private static List<StatementResult> whoAmI(String urlFormat, ProxyServer proxy, String user, String password)
            throws SQLException {
        try (Connection c = DriverManager.getConnection(urlFormat.formatted(proxy.port()), user, password)) {
            return StatementResult.execute(c, "SELECT CURRENT_USER(), USER() LIKE '" + user + "@%'");
        }
    }

    private static void assertLoggedInAs(List<StatementResult> result, String user) {
        assertThat(result).singleElement().isInstanceOf(Rows.class);
        List<Object> row = ((Rows) result.getFirst()).rows().getFirst();
        assertThat((String) row.get(0)).startsWith(user + "@");
        assertThat(((Number) row.get(1)).intValue()).as("USER() matches").isEqualTo(1);
    }

    @Test
    void rsaFullAuthenticationFirstThenFastAuthentication(MariaDbCluster cluster) throws SQLException {
        try (ProxyServer proxy = ProxyFixture.start(ClientProxies.primaryOnly(cluster))) {
            assertThatThrownBy(() -> whoAmI(FAST_ONLY, proxy, TestUsers.APP_USER, TestUsers.APP_PASSWORD))
                    .as("a fresh proxy has no cached password, so the first login needs full authentication")
                    .isInstanceOf(SQLException.class).hasMessageContaining("Public Key Retrieval is not allowed");
            assertThatThrownBy(() -> whoAmI(RSA, proxy, TestUsers.APP_USER, "wrong"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1045))
                    .hasMessageContaining("Access denied for user 'app'@'127.0.0.1' (using password: YES)");
            assertLoggedInAs(whoAmI(RSA, proxy, TestUsers.APP_USER, TestUsers.APP_PASSWORD), TestUsers.APP_USER);
            assertLoggedInAs(whoAmI(FAST_ONLY, proxy, TestUsers.APP_USER, TestUsers.APP_PASSWORD), TestUsers.APP_USER);
            // A scramble that does not match the cached password falls back to full authentication, as in MySQL.
            assertThatThrownBy(() -> whoAmI(FAST_ONLY, proxy, TestUsers.APP_USER, "wrong"))
                    .as("fast authentication still checks the scramble")
                    .isInstanceOf(SQLException.class).hasMessageContaining("Public Key Retrieval is not allowed");
            assertThatThrownBy(() -> whoAmI(RSA, proxy, TestUsers.APP_USER, "wrong"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1045));
        }
    }

    /** In split mode the proxy checks COM_CHANGE_USER itself; its RSA step runs off the event loop too. */
    @Test
    void changeUserInSplitModeWithRsaFullAuthentication(MariaDbCluster cluster) throws SQLException {
        SluiceConfig split = ProxyFixture.config(ProxyFixture.backends(cluster))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN));
        try (ProxyServer proxy = ProxyFixture.start(split);
             Connection c = DriverManager.getConnection(RSA.formatted(proxy.port()), TestUsers.APP_USER, TestUsers.APP_PASSWORD)) {
            assertThatThrownBy(() -> whoAmI(FAST_ONLY, proxy, TestUsers.APP2_USER, TestUsers.APP2_PASSWORD))
                    .as("app2 has not logged in yet: no cached password").isInstanceOf(SQLException.class)
                    .hasMessageContaining("Public Key Retrieval is not allowed");
            c.unwrap(JdbcConnection.class).changeUser(TestUsers.APP2_USER, TestUsers.APP2_PASSWORD);
            assertLoggedInAs(StatementResult.execute(c, "SELECT CURRENT_USER(), USER() LIKE '" + TestUsers.APP2_USER + "@%'"),
                    TestUsers.APP2_USER);
            assertThatThrownBy(() -> c.unwrap(JdbcConnection.class).changeUser(TestUsers.APP_USER, "wrong"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1045));
        }
    }

    @Test
    void fullAuthenticationOverTlsSendsThePasswordInClear(MariaDbCluster cluster) throws SQLException {
        SluiceConfig config = ClientProxies.clientTls(ClientProxies.primaryOnly(cluster), false);
        try (ProxyServer proxy = ProxyFixture.start(config)) {
            assertThatThrownBy(() -> whoAmI(FAST_ONLY, proxy, TestUsers.APP2_USER, TestUsers.APP2_PASSWORD))
                    .as("a fresh proxy has no cached password for app2")
                    .isInstanceOf(SQLException.class).hasMessageContaining("Public Key Retrieval is not allowed");
            assertThatThrownBy(() -> whoAmI(TLS, proxy, TestUsers.APP2_USER, "wrong"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1045));
            assertLoggedInAs(whoAmI(TLS, proxy, TestUsers.APP2_USER, TestUsers.APP2_PASSWORD), TestUsers.APP2_USER);
            // The cleartext full authentication over TLS filled the cache: fast authentication now works without TLS.
            assertLoggedInAs(whoAmI(FAST_ONLY, proxy, TestUsers.APP2_USER, TestUsers.APP2_PASSWORD), TestUsers.APP2_USER);
            assertLoggedInAs(whoAmI(TLS, proxy, TestUsers.APP2_USER, TestUsers.APP2_PASSWORD), TestUsers.APP2_USER);
        }
    }

    @Test
    void tlsRequiredRefusesAPlainConnection(MariaDbCluster cluster) throws SQLException {
        try (ProxyServer proxy = ProxyFixture.start(ClientProxies.clientTls(ClientProxies.primaryOnly(cluster), true))) {
            assertThatThrownBy(() -> whoAmI(RSA, proxy, TestUsers.APP_USER, TestUsers.APP_PASSWORD))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(3159));
            assertLoggedInAs(whoAmI(TLS, proxy, TestUsers.APP_USER, TestUsers.APP_PASSWORD), TestUsers.APP_USER);
        }
    }

    @Test
    void eachProxyStartsWithAnEmptyCache(MariaDbCluster cluster) throws SQLException {
        try (ProxyServer first = ProxyFixture.start(ClientProxies.primaryOnly(cluster))) {
            assertLoggedInAs(whoAmI(RSA, first, TestUsers.APP_USER, TestUsers.APP_PASSWORD), TestUsers.APP_USER);
            assertLoggedInAs(whoAmI(FAST_ONLY, first, TestUsers.APP_USER, TestUsers.APP_PASSWORD), TestUsers.APP_USER);
        }
        try (ProxyServer second = ProxyFixture.start(ClientProxies.primaryOnly(cluster))) {
            assertThatThrownBy(() -> whoAmI(FAST_ONLY, second, TestUsers.APP_USER, TestUsers.APP_PASSWORD))
                    .as("a new proxy must not know what an earlier one cached, as a restarted MySQL does not")
                    .isInstanceOf(SQLException.class).hasMessageContaining("Public Key Retrieval is not allowed");
        }
    }
}
