package dev.sluice.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server side of both plugins against a real client, MySQL Connector/J 9.5.0, over loopback
 * with {@link BlockingTestServer}. TLS full authentication is left to the proxy's tests.
 */
class ConnectorJServerAuthTest {

    private static final String NATIVE = MysqlNativePassword.NAME;
    private static final String SHA2 = CachingSha2Password.NAME;
    private static final Map<String, String> USERS = Map.of("app", "app-secret");
    private static final String PEM_HEX = "S: 01" + HexFormat.of().formatHex(
            TestKeys.PAIR.publicKeyPem().getBytes(StandardCharsets.US_ASCII));

    @Test
    void cachingSha2FastAuth() throws Exception {
        try (BlockingTestServer server = new BlockingTestServer(USERS, SHA2, SHA2, false)) {
            try (Connection connection = connect(server, "app", "app-secret", "")) {
                assertThat(connection.isValid(5)).isTrue();
            }
            BlockingTestServer.Login login = server.nextLogin();
            assertThat(login.clientPlugin()).isEqualTo(SHA2);
            assertThat(login.packets()).containsExactly("S: 0103");
            assertThat(login.end()).isInstanceOf(ServerStep.Accept.class);
        }
    }

    @Test
    void cachingSha2FullAuthWithPublicKeyRetrieval() throws Exception {
        try (BlockingTestServer server = new BlockingTestServer(USERS, SHA2, SHA2, true)) {
            try (Connection connection = connect(server, "app", "app-secret", "&allowPublicKeyRetrieval=true")) {
                assertThat(connection.isValid(5)).isTrue();
            }
            BlockingTestServer.Login login = server.nextLogin();
            assertThat(login.packets()).hasSize(4).startsWith("S: 0104", "C: 02", PEM_HEX);
            assertThat(login.packets().get(3)).hasSize("C: ".length() + 2 * 256);
            assertThat(login.end()).isInstanceOf(ServerStep.Accept.class);
        }
    }

    @Test
    void cachingSha2FullAuthWithConfiguredServerKey(@TempDir Path dir) throws Exception {
        Path keyFile = Files.writeString(dir.resolve("public_key.pem"), TestKeys.PAIR.publicKeyPem());
        try (BlockingTestServer server = new BlockingTestServer(USERS, SHA2, SHA2, true)) {
            try (Connection connection = connect(server, "app", "app-secret", "&serverRSAPublicKeyFile=" + keyFile)) {
                assertThat(connection.isValid(5)).isTrue();
            }
            BlockingTestServer.Login login = server.nextLogin();
            assertThat(login.packets()).hasSize(2).startsWith("S: 0104");
            assertThat(login.packets().get(1)).hasSize("C: ".length() + 2 * 256);
        }
    }

    @Test
    void cachingSha2WrongPasswordIsDeniedAfterFullAuth() throws Exception {
        try (BlockingTestServer server = new BlockingTestServer(USERS, SHA2, SHA2, false)) {
            assertAccessDenied(server, "app", "wrong", "Access denied for user 'app'@'127.0.0.1' (using password: YES)");
            assertThat(server.nextLogin().packets()).hasSize(4).startsWith("S: 0104", "C: 02", PEM_HEX);
        }
    }

    @Test
    void unknownUserIsDeniedAfterTheSameFullAuth() throws Exception {
        try (BlockingTestServer server = new BlockingTestServer(USERS, SHA2, SHA2, false)) {
            assertAccessDenied(server, "ghost", "app-secret", "Access denied for user 'ghost'@'127.0.0.1' (using password: YES)");
            assertThat(server.nextLogin().packets()).hasSize(4).startsWith("S: 0104", "C: 02", PEM_HEX);
        }
    }

    @Test
    void nativePassword() throws Exception {
        try (BlockingTestServer server = new BlockingTestServer(USERS, NATIVE, NATIVE, false)) {
            try (Connection connection = connect(server, "app", "app-secret", "")) {
                assertThat(connection.isValid(5)).isTrue();
            }
            BlockingTestServer.Login login = server.nextLogin();
            assertThat(login.clientPlugin()).isEqualTo(NATIVE);
            assertThat(login.packets()).isEmpty();
            assertThat(login.end()).isInstanceOf(ServerStep.Accept.class);
        }
    }

    @Test
    void nativeWrongPasswordIsDenied() throws Exception {
        try (BlockingTestServer server = new BlockingTestServer(USERS, NATIVE, NATIVE, false)) {
            assertAccessDenied(server, "app", "wrong", "Access denied for user 'app'@'127.0.0.1' (using password: YES)");
            assertThat(server.nextLogin().packets()).isEmpty();
        }
    }

    @Test
    void switchFromNativeGreetingToCachingSha2Account() throws Exception {
        try (BlockingTestServer server = new BlockingTestServer(USERS, NATIVE, SHA2, false)) {
            try (Connection connection = connect(server, "app", "app-secret", "")) {
                assertThat(connection.isValid(5)).isTrue();
            }
            BlockingTestServer.Login login = server.nextLogin();
            assertThat(login.clientPlugin()).isEqualTo(NATIVE);
            assertThat(login.packets()).hasSize(3);
            assertThat(login.packets().get(0)).startsWith("S: fe" + HexFormat.of().formatHex(SHA2.getBytes(StandardCharsets.US_ASCII)) + "00");
            assertThat(login.packets().get(2)).isEqualTo("S: 0103");
        }
    }

    private static void assertAccessDenied(BlockingTestServer server, String user, String password, String message) {
        assertThatThrownBy(() -> connect(server, user, password, "&allowPublicKeyRetrieval=true").close())
                .isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getErrorCode()).isEqualTo(1045);
                    assertThat(e.getSQLState()).isEqualTo("28000");
                    assertThat(e.getMessage()).isEqualTo(message);
                });
    }

    private static Connection connect(BlockingTestServer server, String user, String password, String options)
            throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        String url = "jdbc:mysql://127.0.0.1:" + server.port() + "/?sslMode=DISABLED&connectTimeout=5000&socketTimeout=10000"
                + options;
        return DriverManager.getConnection(url, properties);
    }
}
