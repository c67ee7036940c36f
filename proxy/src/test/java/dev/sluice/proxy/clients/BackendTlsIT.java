package dev.sluice.proxy.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendTlsConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TlsConfig;
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
import java.util.Optional;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * tls.backend.enabled: the proxy's connections to the backend use TLS (testkit's servers have a
 * certificate), while the client talks to the proxy in plain text. The backend reports the cipher
 * of the session it serves.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BackendTlsIT {

    private static SluiceConfig backendTls(SluiceConfig config) {
        TlsConfig tls = new TlsConfig(config.tls().client(), new BackendTlsConfig(true, false, Optional.empty()));
        return config.withTls(tls);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void sessionsReachTheBackendOverTls(boolean passThrough, MariaDbCluster cluster) throws SQLException {
        SluiceConfig config = ClientProxies.primaryOnly(cluster);
        if (passThrough) {
            config = ClientProxies.passThrough(config);
        }
        try (ProxyServer proxy = ProxyFixture.start(backendTls(config));
             Connection c = DriverManager.getConnection(ClientProxies.connectorJ(proxy.port(), null, "useServerPrepStmts=true"),
                     TestUsers.APP_USER, TestUsers.APP_PASSWORD)) {
            List<StatementResult> cipher = StatementResult.execute(c, "SHOW SESSION STATUS LIKE 'Ssl_cipher'");
            assertThat(cipher).singleElement().isInstanceOf(Rows.class);
            assertThat((String) ((Rows) cipher.getFirst()).rows().getFirst().get(1)).as("the backend session's cipher")
                    .isNotBlank();
            try (var ps = c.prepareStatement("SELECT ? * 2")) {
                ps.setInt(1, 21);
                try (var rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(42);
                }
            }
        }
    }
}
