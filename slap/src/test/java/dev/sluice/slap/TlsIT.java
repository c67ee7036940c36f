package dev.sluice.slap;

import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

import static dev.sluice.slap.SlapRunner.deltas;
import static dev.sluice.slap.SlapRunner.slap;
import static org.assertj.core.api.Assertions.assertThat;

/** The mysql client's TLS options reach Connector/J: plaintext by default, TLS when asked, CA checked. */
@ExtendWith(SlapServerExtension.class)
class TlsIT {

    private static final String[] LOAD = {"--create-schema=" + TestUsers.TEST_SCHEMA, "--query=SELECT 1", "-c", "2"};

    private static String serverCertificate;

    @BeforeAll
    static void findTheServersCertificate(MariaDbServer server) throws SQLException {
        try (Connection admin = server.openAdmin();
             ResultSet row = admin.createStatement().executeQuery("SELECT @@ssl_cert")) {
            row.next();
            serverCertificate = row.getString(1);
        }
        assertThat(serverCertificate).as("the test server is started with a certificate").isNotBlank();
    }

    private static Map<String, Long> tlsHandshakes(MariaDbServer server, int expectedExit, String... options) {
        String[] args = new String[LOAD.length + options.length];
        System.arraycopy(LOAD, 0, args, 0, LOAD.length);
        System.arraycopy(options, 0, args, LOAD.length, options.length);
        return deltas(server, () -> {
            SlapCommandTest.Run run = slap(server, args);
            assertThat(run.exit()).as(run.err()).isEqualTo(expectedExit);
        }, "Ssl_accepts");
    }

    @Test
    void plaintextUnlessAsked(MariaDbServer server) {
        assertThat(tlsHandshakes(server, 0)).containsEntry("Ssl_accepts", 0L);
    }

    @Test
    void sslEncryptsTheSetupConnectionAndEveryClient(MariaDbServer server) {
        assertThat(tlsHandshakes(server, 0, "--ssl")).containsEntry("Ssl_accepts", 3L);
    }

    @Test
    void sslCaVerifiesTheServerCertificate(MariaDbServer server) {
        assertThat(tlsHandshakes(server, 0, "--ssl-ca=" + serverCertificate)).containsEntry("Ssl_accepts", 3L);
    }

    @Test
    void verifyServerCertChecksTheHostName(MariaDbServer server) {
        // The certificate names "sluice-testkit", not 127.0.0.1: the setup connection is refused.
        SlapCommandTest.Run run = slap(server, "--ssl-ca=" + serverCertificate, "--ssl-verify-server-cert", LOAD[0], LOAD[1]);
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).startsWith("slap: Error when connecting to server: ");
    }

    @Test
    void skipSslWins(MariaDbServer server) {
        assertThat(tlsHandshakes(server, 0, "--ssl", "--skip-ssl")).containsEntry("Ssl_accepts", 0L);
    }
}
