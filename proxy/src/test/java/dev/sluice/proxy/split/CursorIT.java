package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RoutingConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A server-side cursor ties the session to its connection until it is read to its end, and
 * Connector/J leaves one that was closed early open until its statement runs again. The session
 * writes meanwhile, as it could on a direct connection.
 */
@ExtendWith(MariaDbClusterExtension.class)
class CursorIT {

    private static ProxyServer proxy;

    @BeforeAll
    static void start(MariaDbCluster cluster) throws SQLException {
        try (Connection c = cluster.primary().openAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS sluice_test.cursor_rows (k INT PRIMARY KEY, v INT)");
            s.execute("INSERT IGNORE INTO sluice_test.cursor_rows SELECT seq, 0 FROM sluice_test.seq_1_to_500");
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(10));
        proxy = ProxyFixture.start(ProxyFixture.config(ProxyFixture.backends(cluster))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN)));
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void aCursorClosedEarlyLeavesTheSessionFreeToWrite() throws SQLException {
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", "useCursorFetch=true&useServerPrepStmts=true"
                + "&cachePrepStmts=true")) {
            try (Statement s = c.createStatement()) {
                s.setFetchSize(10);
                try (ResultSet rs = s.executeQuery("SELECT k FROM cursor_rows ORDER BY k")) {
                    for (int i = 0; i < 25; i++) {
                        assertThat(rs.next()).isTrue();
                    }
                }
            }
            try (Statement s = c.createStatement()) {
                s.execute("SET @tenant = 7");
                assertThat(s.executeUpdate("UPDATE cursor_rows SET v = v + 1 WHERE k = 1")).isEqualTo(1);
                try (ResultSet rs = s.executeQuery("SELECT @tenant")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(7);
                }
            }
        }
    }

    @Test
    void eachRowOfACursorMayBeUpdatedAsItIsRead() throws SQLException {
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", "useCursorFetch=true&useServerPrepStmts=true");
             PreparedStatement read = c.prepareStatement("SELECT k FROM cursor_rows WHERE k <= 40 ORDER BY k")) {
            read.setFetchSize(7);
            int rows = 0;
            PreparedStatement write = null;
            try (ResultSet rs = read.executeQuery()) {
                while (rs.next()) {
                    if (write == null) {
                        // Prepared only now, with the cursor open: nothing holds the session on the primary before.
                        write = c.prepareStatement("UPDATE cursor_rows SET v = v + 1 WHERE k = ?");
                    }
                    write.setInt(1, rs.getInt(1));
                    assertThat(write.executeUpdate()).isEqualTo(1);
                    rows++;
                }
            } finally {
                if (write != null) {
                    write.close();
                }
            }
            assertThat(rows).isEqualTo(40);
        }
    }
}
