package dev.sluice.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import io.netty.channel.uring.IoUring;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The proxy runs on the transport asked for: failsafe runs the client ITs once on the default
 * (io_uring where the kernel allows it) and once more with {@code -Dsluice.transport=epoll}, the
 * transport of kernels and container profiles that forbid io_uring.
 */
@ExtendWith(MariaDbClusterExtension.class)
class TransportIT {

    @Test
    void theProxyRunsOnTheTransportAskedForAndCarriesStatements(MariaDbCluster cluster) throws Exception {
        String asked = System.getProperty(Transport.PROPERTY, "");
        String expected = asked.isEmpty() ? (IoUring.isAvailable() ? "io_uring" : "epoll") : asked;
        try (ProxyServer proxy = ProxyFixture.start(ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary()))))) {
            assertThat(proxy.transport()).isEqualTo(expected);
            String url = "jdbc:mysql://127.0.0.1:" + proxy.port() + "/?sslMode=DISABLED&allowPublicKeyRetrieval=true";
            try (Connection c = DriverManager.getConnection(url, TestUsers.APP_USER, TestUsers.APP_PASSWORD);
                 Statement s = c.createStatement();
                 ResultSet rows = s.executeQuery("SELECT seq, REPEAT('x', 1000) FROM mysql.seq_1_to_5000")) {
                int count = 0;
                while (rows.next()) {
                    count++;
                    assertThat(rows.getInt(1)).isEqualTo(count);
                }
                assertThat(count).isEqualTo(5000);
            }
        }
    }
}
