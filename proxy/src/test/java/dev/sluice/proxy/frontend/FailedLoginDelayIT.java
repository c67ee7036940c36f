package dev.sluice.proxy.frontend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.LimitsConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Guessing passwords from one address slows down after a few failures in a row: every answer
 * from there waits then, a success's too (else a guesser would hang up on the slow ones), until
 * a success ends it.
 */
@ExtendWith(MariaDbClusterExtension.class)
class FailedLoginDelayIT {

    @Test
    void answersFromAnAddressThatKeepsFailingWaitUntilOneSucceeds(MariaDbCluster cluster) throws SQLException {
        LimitsConfig limits = LimitsConfig.defaults();
        try (ProxyServer proxy = ProxyFixture.start(ProxyFixture.config(ProxyFixture.backends(cluster))
                .withLimits(new LimitsConfig(limits.maxClientConnections(), limits.backendQueueSize(),
                        limits.allowLocalInfile(), limits.maxPacketSize(), 2)))) {
            refusedLogin(proxy);
            refusedLogin(proxy);
            assertThat(millis(() -> refusedLogin(proxy))).as("the third failure in a row waits 1 s")
                    .isGreaterThanOrEqualTo(950);
            assertThat(millis(() -> ProxyFixture.connect(proxy, "sluice_test", "").close()))
                    .as("a success from there waits too (2 s after three failures)").isGreaterThanOrEqualTo(1_950);
            assertThat(millis(() -> ProxyFixture.connect(proxy, "sluice_test", "").close()))
                    .as("and ends the delay").isLessThan(900);
        }
    }

    private static void refusedLogin(ProxyServer proxy) {
        assertThatThrownBy(() -> DriverManager.getConnection(ProxyFixture.url(proxy, "sluice_test", ""),
                TestUsers.APP_USER, "not-the-password").close())
                .isInstanceOf(SQLException.class).hasMessageContaining("Access denied");
    }

    private interface Login {
        void run() throws SQLException;
    }

    private static long millis(Login login) throws SQLException {
        long started = System.nanoTime();
        login.run();
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    }
}
