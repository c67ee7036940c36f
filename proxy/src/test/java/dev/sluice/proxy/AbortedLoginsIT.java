package dev.sluice.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.SluiceConfig;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.MariaDbServer;
import java.io.IOException;
import java.net.Socket;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Clients that give up half-way through the login must never leave an aborted handshake on a
 * backend: enough of those and the backend blocks the proxy's host (ERR 1129, max_connect_errors).
 * MariaDB counts them in Aborted_connects_preauth; the direct control shows that the counter
 * really moves when a handshake is aborted, so a zero through the proxy means something.
 */
@ExtendWith(MariaDbClusterExtension.class)
class AbortedLoginsIT {

    private static final int ABORTS = 60;

    private static long preauthAborts(MariaDbServer server) {
        return server.globalStatus("Aborted_connects_preauth");
    }

    private static void abortAfterGreeting(int port) throws IOException {
        try (RawClient client = new RawClient(port)) {
            client.greeting();
        }
    }

    private static void abortMidResponse(int port) throws IOException {
        try (RawClient client = new RawClient(port)) {
            client.greeting();
            // A handshake response cut short: the header promises more than is sent.
            client.sendRaw(new byte[] {64, 0, 0, 1, (byte) 0x85, (byte) 0xa2});
        }
    }

    private static void abortAtOnce(int port) throws IOException {
        new Socket("127.0.0.1", port).close();
    }

    @Test
    void abortedHandshakesDirectlyAreCountedByTheBackend(MariaDbCluster cluster) throws IOException {
        MariaDbServer server = cluster.replicas().get(0);
        long before = preauthAborts(server);
        for (int i = 0; i < 5; i++) {
            abortMidResponse(server.port());
        }
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> preauthAborts(server) - before >= 5);
    }

    @Test
    void passThroughLoginsAbortedByClientsAreFinishedCleanly(MariaDbCluster cluster) throws Exception {
        MariaDbServer server = cluster.replicas().get(0);
        SluiceConfig config = ProxyFixture.config(List.of(ProxyFixture.backend(server))).withUsers(List.of());
        try (ProxyServer proxy = ProxyFixture.start(config)) {
            long before = preauthAborts(server);
            for (int i = 0; i < ABORTS; i++) {
                switch (i % 3) {
                    case 0 -> abortAfterGreeting(proxy.port());
                    case 1 -> abortMidResponse(proxy.port());
                    default -> abortAtOnce(proxy.port());
                }
            }
            Awaitility.await().atMost(Duration.ofSeconds(20))
                    .until(() -> proxy.runtime().backends().get(0).openConnections().get() == 0);
            assertThat(preauthAborts(server) - before).as("handshakes the proxy aborted on the backend").isZero();
            try (Connection c = java.sql.DriverManager.getConnection(ProxyFixture.url(proxy, null, ""),
                    dev.sluice.testkit.TestUsers.APP_USER, dev.sluice.testkit.TestUsers.APP_PASSWORD)) {
                assertThat(c.isValid(2)).isTrue();
            }
        }
    }

    @Test
    void loginsAbortedAgainstTheAuthenticatingProxyNeverReachTheBackend(MariaDbCluster cluster) throws Exception {
        MariaDbServer server = cluster.replicas().get(0);
        SluiceConfig config = ProxyFixture.config(List.of(ProxyFixture.backend(server)));
        try (ProxyServer proxy = ProxyFixture.start(config)) {
            long before = preauthAborts(server);
            for (int i = 0; i < ABORTS; i++) {
                switch (i % 3) {
                    case 0 -> abortAfterGreeting(proxy.port());
                    case 1 -> abortMidResponse(proxy.port());
                    default -> abortAtOnce(proxy.port());
                }
            }
            try (Connection c = ProxyFixture.connect(proxy, null, "")) {
                assertThat(c.isValid(2)).isTrue();
            }
            assertThat(preauthAborts(server) - before).isZero();
        }
    }
}
