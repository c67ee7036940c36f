package dev.sluice.proxy.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.AdminConfig;
import dev.sluice.config.BackendConfig;
import dev.sluice.config.HealthConfig;
import dev.sluice.config.HostPort;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TimeoutsConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Too many errors: a backend whose new connections are refused while the health check's own
 * connection still answers pings. The checks alone would keep it ONLINE; the sessions' failed
 * connects shun it, and it stays out until a check on a new connection passes.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConnectErrorsShunIT {

    private static final Duration INTERVAL = Duration.ofMillis(200);

    private static SluiceConfig passThrough(int port) {
        BackendConfig viaRelay = new BackendConfig("primary", new HostPort("127.0.0.1", port), BackendConfig.Role.PRIMARY,
                1, 200);
        TimeoutsConfig d = TimeoutsConfig.defaults();
        // Pass-through: every session opens its own backend connection, so each refused connect counts.
        return ProxyFixture.config(List.of(viaRelay)).withUsers(List.of())
                .withAdmin(AdminConfig.onFreePorts("admin", "admin-secret"))
                .withHealth(new HealthConfig(true, INTERVAL, Duration.ofSeconds(2), 3, 2, Duration.ZERO,
                        Optional.of(TestUsers.APP_USER), Optional.of(TestUsers.APP_PASSWORD)))
                .withTimeouts(new TimeoutsConfig(d.connect(), d.handshake(), d.clientIdle(), d.backendQueue(), d.poolIdle(),
                        d.shutdown(), Duration.ofMillis(1)));
    }

    private static int selectOne(ProxyServer proxy) throws SQLException {
        try (Connection c = ProxyFixture.connect(proxy, null, ""); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT 1")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void refusedSessionConnectsShunTheBackendUntilANewConnectionWorks(MariaDbCluster cluster) throws Exception {
        try (RefusableRelay relay = new RefusableRelay(cluster.primary().port());
             ProxyServer proxy = ProxyFixture.start(passThrough(relay.port()))) {
            Backend backend = proxy.runtime().backends().get(0);
            BackendHealth health = proxy.admin().health().health(backend);
            assertThat(selectOne(proxy)).isEqualTo(1);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> health.checksPassed() >= 2);

            relay.refuse();
            long passedBefore = health.checksPassed();
            AtomicInteger refusedLogins = new AtomicInteger();
            // Each poll is one more session whose backend connect is refused, until the backend is out.
            Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20)).until(() -> {
                assertThatThrownBy(() -> selectOne(proxy)).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(9001));
                refusedLogins.incrementAndGet();
                return backend.state() != Backend.State.ONLINE;
            });
            System.out.printf("shunned after %d refused logins; checks passed meanwhile: %d%n", refusedLogins.get(),
                    health.checksPassed() - passedBefore);
            assertThat(backend.state()).isEqualTo(Backend.State.SHUNNED);

            // The checks now connect anew, are refused, and keep it out for five intervals and more.
            Awaitility.await().during(INTERVAL.multipliedBy(5)).atMost(INTERVAL.multipliedBy(15))
                    .until(() -> backend.state() == Backend.State.SHUNNED);
            assertThat(health.lastError()).contains("refused");

            relay.accept();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> backend.state() == Backend.State.ONLINE);
            assertThat(selectOne(proxy)).isEqualTo(1);
        }
    }
}
