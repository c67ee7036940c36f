package dev.sluice.proxy.kill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TimeoutsConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** timeouts.query kills a statement that runs too long, in both modes, and nothing else. */
@ExtendWith(MariaDbClusterExtension.class)
class QueryTimeoutIT {

    @Test
    void aStatementPastTheTimeoutIsKilledTheNextOnesRun(MariaDbCluster cluster) throws Exception {
        for (RoutingConfig.Mode mode : RoutingConfig.Mode.values()) {
            SluiceConfig base = ProxyFixture.config(ProxyFixture.backends(cluster))
                    .withRouting(new RoutingConfig(mode, RoutingConfig.Balancer.ROUND_ROBIN));
            TimeoutsConfig t = base.timeouts();
            try (ProxyServer proxy = ProxyFixture.start(base.withTimeouts(new TimeoutsConfig(t.connect(), t.handshake(),
                    t.clientIdle(), t.backendQueue(), t.poolIdle(), t.shutdown(), t.backendRetry(), Duration.ofSeconds(1))));
                 Connection c = ProxyFixture.connect(proxy, "sluice_test", "");
                 Statement s = c.createStatement()) {
                assertThat(sleep(s, "0.2")).as("%s: shorter than the timeout", mode).isZero();
                long start = System.nanoTime();
                SQLException killed = catchThrowableOfType(SQLException.class, () -> sleep(s, "20"));
                long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
                // MariaDB answers a SLEEP that KILL QUERY interrupts with 1, or with ER_QUERY_INTERRUPTED.
                if (killed != null) {
                    assertThat(killed.getErrorCode()).as("%s", mode).isEqualTo(1317);
                }
                assertThat(seconds).as("%s: killed after about a second, not 20", mode).isLessThan(10);
                // The timer of the first statement, due meanwhile, must not kill this one.
                assertThat(sleep(s, "0.5")).as("%s: the session goes on", mode).isZero();
            }
        }
    }

    /**
     * Pass-through has no password for a KILL connection: the statement's backend connection is
     * closed instead, and the client hears of it at once rather than after the statement.
     */
    @Test
    void aPassThroughStatementPastTheTimeoutEndsItsSession(MariaDbCluster cluster) throws Exception {
        SluiceConfig base = ProxyFixture.config(ProxyFixture.backends(cluster)).withUsers(java.util.List.of());
        TimeoutsConfig t = base.timeouts();
        try (ProxyServer proxy = ProxyFixture.start(base.withTimeouts(new TimeoutsConfig(t.connect(), t.handshake(),
                t.clientIdle(), t.backendQueue(), t.poolIdle(), t.shutdown(), t.backendRetry(), Duration.ofSeconds(1))));
             Connection c = ProxyFixture.connect(proxy, "sluice_test", "");
             Statement s = c.createStatement()) {
            assertThat(sleep(s, "0.2")).as("shorter than the timeout").isZero();
            long start = System.nanoTime();
            SQLException ended = catchThrowableOfType(SQLException.class, () -> sleep(s, "20"));
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            assertThat((Throwable) ended).as("the client is told").isNotNull();
            assertThat(seconds).as("after about a second, not 20").isLessThan(10);
        }
        try (ProxyServer proxy = ProxyFixture.start(base);
             Connection c = ProxyFixture.connect(proxy, "sluice_test", "");
             Statement s = c.createStatement()) {
            assertThat(sleep(s, "1.2")).as("off by default").isZero();
        }
    }

    private static int sleep(Statement s, String seconds) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT SLEEP(" + seconds + ")")) {
            assertThat(rs.next()).isTrue();
            return rs.getInt(1);
        }
    }
}
