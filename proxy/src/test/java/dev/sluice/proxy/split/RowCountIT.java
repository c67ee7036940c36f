package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * ROW_COUNT() right after a write is the write's, while other sessions use the same backend
 * connection: one connection makes every statement of the other session run on it between two of
 * this one's, unless the proxy keeps it for the asking statement.
 */
@ExtendWith(MariaDbClusterExtension.class)
class RowCountIT {

    private static ProxyServer proxy;

    @BeforeAll
    static void start(MariaDbCluster cluster) throws SQLException {
        try (Connection c = cluster.primary().openAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS sluice_test.row_counts (k INT PRIMARY KEY, v INT)");
            s.execute("REPLACE INTO sluice_test.row_counts VALUES (1, 0), (2, 0), (3, 0), (4, 0)");
        }
        BackendConfig primary = ProxyFixture.backend(cluster.primary());
        SluiceConfig config = ProxyFixture.config(List.of(new BackendConfig(primary.name(), primary.address(),
                        primary.role(), 1, 1)))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN))
                .withEventLoops(1);
        proxy = ProxyFixture.start(config);
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void rowCountAfterAWriteIsThatWritesWhileOthersShareTheConnection() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService other = Executors.newSingleThreadExecutor();
        try (Connection a = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = a.createStatement()) {
            Future<Integer> others = other.submit(() -> {
                int statements = 0;
                try (Connection b = ProxyFixture.connect(proxy, "sluice_test", ""); Statement sb = b.createStatement()) {
                    while (!stop.get() && statements < 20_000) {
                        sb.executeUpdate("UPDATE row_counts SET v = v + 1 WHERE k = 4");
                        sb.executeQuery("SELECT 1").close();
                        statements++;
                    }
                }
                return statements;
            });
            List<Long> counts = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                s.executeUpdate("UPDATE row_counts SET v = v + 1 WHERE k <= 3");
                try (ResultSet rs = s.executeQuery("SELECT ROW_COUNT()")) {
                    rs.next();
                    counts.add(rs.getLong(1));
                }
            }
            stop.set(true);
            assertThat(others.get(30, TimeUnit.SECONDS)).as("the other session ran meanwhile").isPositive();
            assertThat(counts).as("ROW_COUNT() of each three-row update").containsOnly(3L);
        } finally {
            stop.set(true);
            other.shutdownNow();
        }
    }

    @Test
    void aSessionIdleAfterAWriteGivesItsConnectionBack() throws Exception {
        try (Connection a = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = a.createStatement();
             Connection b = ProxyFixture.connect(proxy, "sluice_test", "connectTimeout=5000&socketTimeout=4000");
             Statement sb = b.createStatement()) {
            s.executeUpdate("UPDATE row_counts SET v = v + 1 WHERE k = 1");
            // The only backend connection was kept for a's next statement; it must not wait for one.
            long started = System.nanoTime();
            try (ResultSet rs = sb.executeQuery("SELECT COUNT(*) FROM row_counts")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(4);
            }
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).as("b waited for a's connection")
                    .isLessThan(3_000);
        }
    }
}
