package dev.sluice.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mysql.MySQLContainer;

/**
 * The client side of caching_sha2_password against a real MySQL 8.4 (Testcontainers), without
 * TLS: full authentication (MySQL's cache is empty for a new account, so the first login goes
 * through RSA), then fast authentication once the cache holds the account. Without a Docker
 * engine every test is reported as skipped, with the reason.
 */
class CachingSha2MySqlIT {

    private static boolean dockerAvailable;
    private static MySQLContainer mysql;

    @BeforeAll
    static void startMySql() throws Exception {
        dockerAvailable = DockerClientFactory.instance().isDockerAvailable();
        if (!dockerAvailable) {
            System.err.println("CachingSha2MySqlIT: skipped: no Docker engine (Testcontainers could not find one)");
            return;
        }
        mysql = new MySQLContainer("mysql:8.4");
        mysql.start();
        try (Connection root = DriverManager.getConnection(mysql.getJdbcUrl(), "root", mysql.getPassword());
             Statement statement = root.createStatement()) {
            for (String user : new String[] {"retrieve", "configured", "denied"}) {
                statement.execute("CREATE USER '" + user + "'@'%' IDENTIFIED WITH caching_sha2_password BY 'pw-" + user + "'");
            }
        }
    }

    /**
     * The assumption sits here rather than in {@link #startMySql}: Maven's JUnit provider does not
     * report a class skipped from @BeforeAll at all, so the skip would pass unseen.
     */
    @BeforeEach
    void requireDocker() {
        Assumptions.assumeTrue(dockerAvailable, "skipped: no Docker engine (Testcontainers could not find one)");
    }

    @AfterAll
    static void stopMySql() {
        if (mysql != null) {
            mysql.stop();
        }
    }

    @Test
    void fullAuthWithRetrievedKeyThenFastAuth() throws Exception {
        BlockingLoginClient.Result full = login("retrieve", "pw-retrieve", ClientAuthOptions.plaintext(true));
        assertThat(full.greetingPlugin()).isEqualTo(CachingSha2Password.NAME);
        assertThat(full.end()).isInstanceOf(ClientStep.Authenticated.class);
        assertThat(full.packets()).startsWith("S: 0104", "C: 02");
        assertThat(full.packets().get(2)).startsWith("S: 01" + hex("-----BEGIN PUBLIC KEY-----"));

        BlockingLoginClient.Result fast = login("retrieve", "pw-retrieve", ClientAuthOptions.plaintext(false));
        assertThat(fast.end()).isInstanceOf(ClientStep.Authenticated.class);
        assertThat(fast.packets()).startsWith("S: 0103").hasSize(2);
    }

    @Test
    void fullAuthWithConfiguredKey() throws Exception {
        String pem;
        try (Connection root = DriverManager.getConnection(mysql.getJdbcUrl(), "root", mysql.getPassword());
             Statement statement = root.createStatement();
             ResultSet row = statement.executeQuery("SHOW STATUS LIKE 'Caching_sha2_password_rsa_public_key'")) {
            assertThat(row.next()).isTrue();
            pem = row.getString(2);
        }
        BlockingLoginClient.Result result = login("configured", "pw-configured",
                ClientAuthOptions.plaintext(PemKeys.publicKeyFromPem(pem)));
        assertThat(result.end()).isInstanceOf(ClientStep.Authenticated.class);
        assertThat(result.packets()).startsWith("S: 0104").doesNotContain("C: 02");
    }

    @Test
    void wrongPasswordIsDenied() throws Exception {
        BlockingLoginClient.Result result = login("denied", "not-it", ClientAuthOptions.plaintext(true));
        assertThat(result.end()).isInstanceOfSatisfying(ClientStep.Rejected.class, rejected -> {
            assertThat(rejected.errorCode()).isEqualTo(1045);
            assertThat(rejected.sqlState()).isEqualTo("28000");
            assertThat(rejected.message()).startsWith("Access denied for user 'denied'@'").endsWith("' (using password: YES)");
        });
    }

    @Test
    void withoutTlsKeyOrRetrievalTheClientAborts() throws Exception {
        // A fresh account is not in MySQL's cache, so it asks for full authentication.
        try (Connection root = DriverManager.getConnection(mysql.getJdbcUrl(), "root", mysql.getPassword());
             Statement statement = root.createStatement()) {
            statement.execute("CREATE USER 'nokey'@'%' IDENTIFIED WITH caching_sha2_password BY 'pw-nokey'");
        }
        BlockingLoginClient.Result result = login("nokey", "pw-nokey", ClientAuthOptions.plaintext(false));
        assertThat(result.end()).isInstanceOf(ClientStep.Abort.class);
    }

    private static BlockingLoginClient.Result login(String user, String password, ClientAuthOptions options) throws Exception {
        return BlockingLoginClient.login(mysql.getHost(), mysql.getMappedPort(3306), user, password, options);
    }

    private static String hex(String text) {
        return HexFormat.of().formatHex(text.getBytes(StandardCharsets.US_ASCII));
    }
}
