package dev.sluice.proxy.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.mysql.cj.jdbc.JdbcConnection;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.clients.StatementResult.Failure;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pass-through mode (no users configured): the client logs into the backend itself through the
 * proxy, so what it sees, errors included, is the backend's own answer.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PassThroughClientsIT {

    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(30);
    private static final String WHO = "SELECT CURRENT_USER(), USER(), DATABASE(), @@port";

    private static MariaDbCluster cluster;
    private static ProxyServer proxy;
    @TempDir
    static Path work;

    @BeforeAll
    static void start(MariaDbCluster shared) {
        cluster = shared;
        proxy = ProxyFixture.start(ClientProxies.passThrough(ClientProxies.primaryOnly(cluster)));
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    private static SQLException loginError(int port, String user, String password) {
        return catchThrowableOfType(SQLException.class, () -> DriverManager.getConnection(
                ClientProxies.connectorJ(port, null, ""), user, password).close());
    }

    @Test
    void connectorJSessionLooksLikeADirectOne() throws SQLException {
        Scenario scenario = c -> {
            List<StatementResult> out = new ArrayList<>(StatementResult.execute(c, WHO));
            out.addAll(StatementResult.execute(c, "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'sluice_test'"));
            JdbcConnection jc = c.unwrap(JdbcConnection.class);
            jc.changeUser(TestUsers.APP2_USER, TestUsers.APP2_PASSWORD);
            out.addAll(StatementResult.execute(c, WHO));
            try {
                jc.changeUser(TestUsers.APP_USER, "wrong");
                out.add(StatementResult.value("changeUser with a wrong password", "accepted"));
            } catch (SQLException e) {
                out.add(new Failure(e.getErrorCode(), e.getSQLState(), e.getMessage()));
            }
            return out;
        };
        List<StatementResult> results = scenario.sameBothWays(
                ClientProxies.connectorJ(cluster.primary().port(), TestUsers.TEST_SCHEMA, "useServerPrepStmts=true"),
                ClientProxies.connectorJ(proxy.port(), TestUsers.TEST_SCHEMA, "useServerPrepStmts=true"),
                TestUsers.APP_USER, TestUsers.APP_PASSWORD);
        assertThat(results.getLast()).isInstanceOf(Failure.class);
        assertThat(((Failure) results.getLast()).errorCode()).isEqualTo(1045);
    }

    @Test
    void wrongPasswordAndUnknownUserGetTheBackendsOwnError() {
        for (String[] credentials : new String[][] {{TestUsers.APP_USER, "wrong"}, {"nobody", "x"}, {TestUsers.APP_USER, ""}}) {
            SQLException direct = loginError(cluster.primary().port(), credentials[0], credentials[1]);
            SQLException proxied = loginError(proxy.port(), credentials[0], credentials[1]);
            assertThat((Throwable) direct).as("direct login of %s", credentials[0]).isNotNull();
            // An empty password gets 1698 (ER_ACCESS_DENIED_NO_PASSWORD_ERROR) from MariaDB, the others 1045.
            assertThat(direct.getErrorCode()).isIn(1045, 1698);
            assertThat((Throwable) proxied).as("login of %s through the proxy", credentials[0]).isNotNull();
            assertThat(proxied.getErrorCode()).isEqualTo(direct.getErrorCode());
            assertThat(proxied.getSQLState()).isEqualTo(direct.getSQLState());
            assertThat(proxied.getMessage()).isEqualTo(direct.getMessage());
        }
    }

    @Test
    void mariadbCliLogsInAndIsRefusedLikeDirectly() throws Exception {
        ExternalTool mariadb = ExternalTool.require("mariadb");
        for (String password : new String[] {TestUsers.APP_PASSWORD, "wrong"}) {
            ExternalTool.Run direct = mariadb.run(MariaDbCliIT.withExecute(MariaDbCliIT.login(cluster.primary().port(),
                    TestUsers.APP_USER, password, TestUsers.TEST_SCHEMA, "--skip-ssl", "--batch"), WHO), null, RUN_TIMEOUT, work);
            ExternalTool.Run proxied = mariadb.run(MariaDbCliIT.withExecute(MariaDbCliIT.login(proxy.port(),
                    TestUsers.APP_USER, password, TestUsers.TEST_SCHEMA, "--skip-ssl", "--batch"), WHO), null, RUN_TIMEOUT, work);
            assertThat(proxied.stdout()).as(proxied.toString()).isEqualTo(direct.stdout());
            assertThat(proxied.stderr()).as(proxied.toString()).isEqualTo(direct.stderr());
            assertThat(proxied.exitCode()).as(proxied.toString()).isEqualTo(direct.exitCode());
            if (password.equals(TestUsers.APP_PASSWORD)) {
                assertThat(direct.stdout()).as(direct.toString()).contains("app@", "sluice_test");
            } else {
                assertThat(direct.stderr()).as(direct.toString()).contains("ERROR 1045 (28000): Access denied for user 'app'@");
            }
        }
    }

    @Test
    void tlsTowardsTheClient() throws Exception {
        try (ProxyServer tls = ProxyFixture.start(ClientProxies.clientTls(
                ClientProxies.passThrough(ClientProxies.primaryOnly(cluster)), true))) {
            try (Connection c = DriverManager.getConnection(ClientProxies.connectorJ(tls.port(), TestUsers.TEST_SCHEMA,
                    "sslMode=REQUIRED"), TestUsers.APP_USER, TestUsers.APP_PASSWORD);
                 Connection d = DriverManager.getConnection(ClientProxies.connectorJ(cluster.primary().port(),
                         TestUsers.TEST_SCHEMA, ""), TestUsers.APP_USER, TestUsers.APP_PASSWORD)) {
                assertThat(StatementResult.execute(c, WHO)).isEqualTo(StatementResult.execute(d, WHO));
            }
            SQLException plain = loginError(tls.port(), TestUsers.APP_USER, TestUsers.APP_PASSWORD);
            assertThat((Throwable) plain).as("tls.client.required refuses a plain login").isNotNull();
            assertThat(plain.getErrorCode()).isEqualTo(3159);
            SQLException wrong = catchThrowableOfType(SQLException.class, () -> DriverManager.getConnection(
                    ClientProxies.connectorJ(tls.port(), null, "sslMode=REQUIRED"), TestUsers.APP_USER, "wrong").close());
            assertThat((Throwable) wrong).isNotNull();
            assertThat(wrong.getErrorCode()).isEqualTo(1045);

            ExternalTool mariadb = ExternalTool.require("mariadb");
            ExternalTool.Run status = mariadb.run(MariaDbCliIT.withExecute(MariaDbCliIT.login(tls.port(),
                    TestUsers.APP_USER, TestUsers.APP_PASSWORD, null, "--ssl", "--skip-ssl-verify-server-cert"),
                    "status; " + WHO), null, RUN_TIMEOUT, work);
            assertThat(status.exitCode()).as(status.toString()).isZero();
            assertThat(status.stdout()).as(status.toString()).containsPattern("SSL:\\s+Cipher in use is \\S+")
                    .contains(String.valueOf(cluster.primary().port()));
        }
    }
}
