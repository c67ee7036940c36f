package dev.sluice.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The client side of mysql_native_password against a real MariaDB 11.4 (testkit's shared
 * cluster), and the server side's ERR 1045 text against the one MariaDB sends. The servers run
 * with skip-name-resolve, so MariaDB names the client '127.0.0.1'.
 */
@ExtendWith(MariaDbClusterExtension.class)
class NativePasswordMariaDbIT {

    private static final String HOST = "127.0.0.1";
    private static MariaDbCluster cluster;
    private static int port;

    @BeforeAll
    static void createAccounts(MariaDbCluster shared) throws Exception {
        cluster = shared;
        port = cluster.primary().port();
        try (Connection admin = cluster.primary().openAdmin(); Statement s = admin.createStatement()) {
            s.execute("CREATE OR REPLACE USER 'native'@'%' IDENTIFIED VIA mysql_native_password USING PASSWORD('n4tive-pw')");
            s.execute("CREATE OR REPLACE USER 'nopass'@'%' IDENTIFIED VIA mysql_native_password USING PASSWORD('')");
        }
    }

    @AfterAll
    static void dropAccounts() throws Exception {
        try (Connection admin = cluster.primary().openAdmin(); Statement s = admin.createStatement()) {
            s.execute("DROP USER IF EXISTS 'native'@'%', 'nopass'@'%'");
        }
    }

    @Test
    void nativeLogin() throws Exception {
        BlockingLoginClient.Result result = login("native", "n4tive-pw");
        assertThat(result.greetingPlugin()).isEqualTo(MysqlNativePassword.NAME);
        assertThat(result.end()).isInstanceOf(ClientStep.Authenticated.class);
        assertThat(result.packets()).hasSize(1);
        assertThat(login(TestUsers.APP_USER, TestUsers.APP_PASSWORD).end()).isInstanceOf(ClientStep.Authenticated.class);
    }

    @Test
    void emptyPasswordLogin() throws Exception {
        BlockingLoginClient.Result result = login("nopass", "");
        assertThat(result.end()).isInstanceOf(ClientStep.Authenticated.class);
    }

    @Test
    void wrongPasswordGetsTheSameErrAsOurServerSide() throws Exception {
        BlockingLoginClient.Result result = login("native", "not-it");
        ServerStep.Reject ours = ServerStep.Reject.accessDenied("native", HOST, true);
        assertThat(result.end()).isEqualTo(new ClientStep.Rejected(ours.errorCode(), ours.sqlState(), ours.message()));
    }

    @Test
    void emptyPasswordForAnAccountWithOneSaysUsingPasswordNo() throws Exception {
        BlockingLoginClient.Result result = login("native", "");
        ServerStep.Reject ours = ServerStep.Reject.accessDenied("native", HOST, false);
        assertThat(result.end()).isEqualTo(new ClientStep.Rejected(ours.errorCode(), ours.sqlState(), ours.message()));
    }

    @Test
    void unknownUserGetsAccessDenied() throws Exception {
        BlockingLoginClient.Result result = login("ghost", "n4tive-pw");
        ServerStep.Reject ours = ServerStep.Reject.accessDenied("ghost", HOST, true);
        assertThat(result.end()).isEqualTo(new ClientStep.Rejected(ours.errorCode(), ours.sqlState(), ours.message()));
    }

    private static BlockingLoginClient.Result login(String user, String password) throws Exception {
        return BlockingLoginClient.login("127.0.0.1", port, user, password, ClientAuthOptions.plaintext(false));
    }
}
