package dev.sluice.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TimeoutsConfig;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendLoginException;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import java.io.IOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Dead backends, idle clients and shutdown: every wait ends, every session ends cleanly. */
@ExtendWith(MariaDbClusterExtension.class)
class ResilienceIT {

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static SluiceConfig withTimeouts(SluiceConfig config, Duration clientIdle, Duration shutdown) {
        TimeoutsConfig d = TimeoutsConfig.defaults();
        return config.withTimeouts(new TimeoutsConfig(d.connect(), d.handshake(), clientIdle, d.backendQueue(),
                d.poolIdle(), shutdown, Duration.ofSeconds(10)));
    }

    private static long select(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void aRefusingBackendLeavesTheRotationAndSessionsGoElsewhere(MariaDbCluster cluster) throws Exception {
        BackendConfig dead = new BackendConfig("dead", new HostPort("127.0.0.1", closedPort()), BackendConfig.Role.REPLICA,
                1, 10);
        SluiceConfig config = withTimeouts(ProxyFixture.config(List.of(dead, ProxyFixture.backend(cluster.replicas().get(0)))),
                Duration.ofHours(1), Duration.ofSeconds(5));
        try (ProxyServer proxy = ProxyFixture.start(config)) {
            Backend deadBackend = proxy.runtime().backends().get(0);
            for (int i = 0; i < 20; i++) {
                try (Connection c = ProxyFixture.connect(proxy, null, "")) {
                    assertThat(select(c, "SELECT @@port")).isEqualTo(cluster.replicas().get(0).port());
                }
            }
            assertThat(deadBackend.available(System.nanoTime())).as("on backoff").isFalse();
            assertThat(deadBackend.lastConnectError()).contains("Connection refused");
        }
    }

    @Test
    void noBackendAtAllIsAClearError() throws Exception {
        BackendConfig dead = new BackendConfig("dead", new HostPort("127.0.0.1", closedPort()), BackendConfig.Role.PRIMARY,
                1, 10);
        try (ProxyServer proxy = ProxyFixture.start(ProxyFixture.config(List.of(dead)))) {
            assertThatThrownBy(() -> ProxyFixture.connect(proxy, null, "").close())
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("dead")
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode())
                            .isEqualTo(BackendLoginException.BACKEND_UNAVAILABLE));
        }
    }

    @Test
    void anIdleClientIsDisconnectedWithErr4031(MariaDbCluster cluster) throws Exception {
        SluiceConfig config = withTimeouts(ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary()))),
                Duration.ofSeconds(1), Duration.ofSeconds(5));
        try (ProxyServer proxy = ProxyFixture.start(config);
             RawClient client = new RawClient(proxy.port())) {
            assertThat(client.login("app", "app").header()).isZero();
            RawClient.RawPacket reply = client.read();
            assertThat(reply.errorCode()).isEqualTo(4031);
            assertThat(reply.errorMessage()).contains("inactivity");
            assertThat(client.closedByPeer()).isTrue();
        }
    }

    @Test
    void aLongStatementIsNotMistakenForAnIdleClient(MariaDbCluster cluster) throws Exception {
        SluiceConfig config = withTimeouts(ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary()))),
                Duration.ofSeconds(1), Duration.ofSeconds(5));
        try (ProxyServer proxy = ProxyFixture.start(config);
             Connection c = ProxyFixture.connect(proxy, null, "")) {
            assertThat(select(c, "SELECT SLEEP(2) + 7")).isEqualTo(7);
        }
    }

    @Test
    void shutdownLetsStatementsInFlightFinishAndClosesIdleSessions(MariaDbCluster cluster) throws Exception {
        SluiceConfig config = withTimeouts(ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary()))),
                Duration.ofHours(1), Duration.ofSeconds(10));
        ProxyServer proxy = ProxyFixture.start(config);
        try (Connection busy = ProxyFixture.connect(proxy, null, "");
             Connection idle = ProxyFixture.connect(proxy, null, "")) {
            CompletableFuture<Long> statement = CompletableFuture.supplyAsync(() -> {
                try {
                    return select(busy, "SELECT SLEEP(1.5) + 42");
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            Awaitility.await().atMost(Duration.ofSeconds(5))
                    .until(() -> proxy.runtime().backends().get(0).stats().queries() >= 1);
            long start = System.nanoTime();
            proxy.close();
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(statement.get(10, TimeUnit.SECONDS)).isEqualTo(42);
            assertThat(tookMillis).as("shutdown waited for the statement, not the whole grace period").isLessThan(8_000);
            assertThatThrownBy(() -> select(idle, "SELECT 1")).isInstanceOf(SQLException.class);
            assertThatThrownBy(() -> ProxyFixture.connect(proxy, null, "")).isInstanceOf(SQLException.class);
        } finally {
            proxy.close();
        }
    }
}
