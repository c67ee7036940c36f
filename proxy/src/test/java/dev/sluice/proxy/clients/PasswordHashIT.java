package dev.sluice.proxy.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.mysql.cj.jdbc.JdbcConnection;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.UserConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * users[].password_hash against real MariaDB with real clients: the config holds only
 * {@code SELECT PASSWORD(...)} of each account, the clients log in with their passwords, and the
 * proxy logs into the backends with what their scrambles proved, in both routing modes (split mode
 * logging into every backend again from its pools).
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PasswordHashIT {

    private static MariaDbCluster cluster;
    private static String appHash;
    private static String app2Hash;
    @TempDir
    static Path work;

    @BeforeAll
    static void hashes(MariaDbCluster shared) throws SQLException {
        cluster = shared;
        ClientProxies.admin(cluster.primary(), "CREATE TABLE IF NOT EXISTS sluice_test.hash_it (id INT PRIMARY KEY)");
        appHash = adminQuery("SELECT PASSWORD('" + TestUsers.APP_PASSWORD + "')");
        app2Hash = adminQuery("SELECT PASSWORD('" + TestUsers.APP2_PASSWORD + "')");
    }

    @Test
    void theHashIsWhatTheServerKeepsAndWhatTheUnitTestsUse() throws SQLException {
        assertThat(adminQuery(
                "SELECT authentication_string FROM mysql.user WHERE user = 'app' AND host = '%'")).isEqualTo(appHash);
        assertThat(appHash).isEqualTo("*5BCB3E6AC345B435C7C2E6B7949A04CE6F6563D3");
        assertThat(adminQuery("SELECT PASSWORD('password')"))
                .isEqualTo("*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19");
    }

    @ParameterizedTest
    @EnumSource(RoutingConfig.Mode.class)
    void connectorJLogsInEvenWhenItAsksForCachingSha2(RoutingConfig.Mode mode) throws Exception {
        try (ProxyServer proxy = ProxyFixture.start(config(mode))) {
            // Connector/J's first answer is then a caching_sha2_password scramble: the proxy switches it to native.
            String url = ClientProxies.connectorJ(proxy.port(), TestUsers.TEST_SCHEMA,
                    "defaultAuthenticationPlugin=caching_sha2_password");
            Set<String> servers = new HashSet<>();
            for (int i = 0; i < 3; i++) {
                try (Connection c = DriverManager.getConnection(url, TestUsers.APP_USER, TestUsers.APP_PASSWORD)) {
                    assertThat(query(c, "SELECT CURRENT_USER()")).isEqualTo("app@%");
                    servers.add(query(c, "SELECT @@server_id"));
                    servers.add(query(c, "/* sluice:primary */ SELECT @@server_id"));
                    try (Statement s = c.createStatement()) {
                        assertThat(s.executeUpdate("REPLACE INTO hash_it VALUES (" + i + ")")).isPositive();
                    }
                }
            }
            // Split mode reads on replicas and writes on the primary, each on connections from its pools,
            // all logged in with the SHA1(password) the logins proved.
            assertThat(servers).hasSize(mode == RoutingConfig.Mode.SPLIT ? 3 : 1);
        }
    }

    @ParameterizedTest
    @EnumSource(RoutingConfig.Mode.class)
    void mariaDbConnectorJLogsIn(RoutingConfig.Mode mode) throws Exception {
        try (ProxyServer proxy = ProxyFixture.start(config(mode));
             Connection c = DriverManager.getConnection(ClientProxies.mariaDb(proxy.port(), TestUsers.TEST_SCHEMA, ""),
                     TestUsers.APP2_USER, TestUsers.APP2_PASSWORD)) {
            assertThat(query(c, "SELECT CURRENT_USER()")).isEqualTo("app2@%");
            assertThat(query(c, "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'sluice_test'"))
                    .isEqualTo("1");
        }
    }

    @ParameterizedTest
    @EnumSource(RoutingConfig.Mode.class)
    void theMariadbCliLogsIn(RoutingConfig.Mode mode) throws Exception {
        ExternalTool mariadb = ExternalTool.require("mariadb");
        try (ProxyServer proxy = ProxyFixture.start(config(mode))) {
            ExternalTool.Run run = mariadb.run(MariaDbCliIT.login(proxy.port(), TestUsers.APP_USER, TestUsers.APP_PASSWORD,
                    TestUsers.TEST_SCHEMA, "--batch", "--skip-column-names", "-e",
                    "SELECT CURRENT_USER(); /* sluice:primary */ SELECT CURRENT_USER()"), null, Duration.ofSeconds(60), work);

            assertThat(run.exitCode()).as(run.toString()).isZero();
            assertThat(run.stdout().lines().toList()).as(run.toString()).containsExactly("app@%", "app@%");

            ExternalTool.Run wrong = mariadb.run(MariaDbCliIT.login(proxy.port(), TestUsers.APP_USER, "not-app", null,
                    "-e", "SELECT 1"), null, Duration.ofSeconds(60), work);
            assertThat(wrong.exitCode()).as(wrong.toString()).isNotZero();
            assertThat(wrong.stderr()).as(wrong.toString())
                    .contains("ERROR 1045 (28000): Access denied for user 'app'@'127.0.0.1' (using password: YES)");
        }
    }

    @Test
    void changeUserInSplitModeToAnotherHashAccount() throws Exception {
        try (ProxyServer proxy = ProxyFixture.start(config(RoutingConfig.Mode.SPLIT));
             Connection c = DriverManager.getConnection(ClientProxies.connectorJ(proxy.port(), TestUsers.TEST_SCHEMA, ""),
                     TestUsers.APP_USER, TestUsers.APP_PASSWORD)) {
            c.unwrap(JdbcConnection.class).changeUser(TestUsers.APP2_USER, TestUsers.APP2_PASSWORD);

            assertThat(query(c, "SELECT CURRENT_USER()")).isEqualTo("app2@%");
            assertThat(query(c, "/* sluice:primary */ SELECT CURRENT_USER()")).isEqualTo("app2@%");
            assertThatExceptionOfType(SQLException.class)
                    .isThrownBy(() -> c.unwrap(JdbcConnection.class).changeUser(TestUsers.APP_USER, "not-app"))
                    .satisfies(refused -> assertThat(refused.getErrorCode()).isEqualTo(1045));
        }
    }

    @Test
    void aBackendThatWantsAnotherPluginIsAClearError() throws Exception {
        assumeTrue(cluster.primary().hasPlugin("ed25519"), "the bundled MariaDB has no ed25519 plugin, so no account"
                + " whose backend login needs more than mysql_native_password");
        String edHash = adminQuery("SELECT PASSWORD('" + TestUsers.ED_PASSWORD + "')");
        SluiceConfig config = config(RoutingConfig.Mode.SESSION)
                .withUsers(List.of(UserConfig.withPasswordHash(TestUsers.ED_USER, edHash)));
        try (ProxyServer proxy = ProxyFixture.start(config)) {
            assertThatExceptionOfType(SQLException.class).isThrownBy(() -> DriverManager.getConnection(
                    ClientProxies.connectorJ(proxy.port(), null, ""), TestUsers.ED_USER, TestUsers.ED_PASSWORD).close())
                    .satisfies(e -> assertThat(e.getErrorCode()).isEqualTo(1045))
                    .withMessageContaining("cannot log into backend primary").withMessageContaining("client_ed25519");
        }
    }

    private static SluiceConfig config(RoutingConfig.Mode mode) {
        List<UserConfig> users = List.of(UserConfig.withPasswordHash(TestUsers.APP_USER, appHash),
                UserConfig.withPasswordHash(TestUsers.APP2_USER, app2Hash));
        SluiceConfig base = mode == RoutingConfig.Mode.SPLIT
                ? ProxyFixture.config(ProxyFixture.backends(cluster))
                        .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN))
                : ClientProxies.primaryOnly(cluster);
        return base.withUsers(users);
    }

    /** The first column of the first row. */
    private static String query(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rows = s.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }

    /** {@link #query} on the primary, as the administrator. */
    private static String adminQuery(String sql) throws SQLException {
        try (Connection c = cluster.primary().openAdmin()) {
            return query(c, sql);
        }
    }
}
