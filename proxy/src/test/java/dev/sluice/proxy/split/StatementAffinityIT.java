package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.MariaDbServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Split mode shares backend connections between sessions, but a prepared statement's executes go
 * back to a connection it is prepared on when one is idle: clients executing at once do not
 * prepare each statement again on every connection of the pool.
 */
@ExtendWith(MariaDbClusterExtension.class)
class StatementAffinityIT {

    private static final int CLIENTS = 16;
    private static final int EXECUTES = 500;

    @Test
    void clientsExecuteWhereTheirStatementsArePrepared(MariaDbCluster cluster) throws Exception {
        try (Connection c = cluster.primary().openAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS sluice_test.affinity (id INT PRIMARY KEY, v INT)");
            s.execute("REPLACE INTO sluice_test.affinity VALUES (1, 10), (2, 20), (3, 30)");
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(10));
        List<MariaDbServer> servers = Stream.concat(Stream.of(cluster.primary()), cluster.replicas().stream()).toList();
        try (ProxyServer proxy = ProxyFixture.start(SplitRoutingIT.splitConfig(cluster));
             ExecutorService threads = Executors.newFixedThreadPool(2 * CLIENTS)) {
            openIdleConnections(proxy, threads, 2 * CLIENTS);
            long preparesBefore = prepares(servers);
            List<Future<Long>> sums = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                sums.add(threads.submit(() -> {
                    try (Connection c = ProxyFixture.connect(proxy, "sluice_test",
                            "useServerPrepStmts=true&cachePrepStmts=false");
                         PreparedStatement ps = c.prepareStatement("SELECT v FROM affinity WHERE id = ?")) {
                        long sum = 0;
                        for (int n = 0; n < EXECUTES; n++) {
                            ps.setInt(1, 1 + n % 3);
                            try (ResultSet rs = ps.executeQuery()) {
                                assertThat(rs.next()).isTrue();
                                sum += rs.getInt(1);
                            }
                        }
                        return sum;
                    }
                }));
            }
            long expected = 0;
            for (int n = 0; n < EXECUTES; n++) {
                expected += 10L * (1 + n % 3);
            }
            for (Future<Long> sum : sums) {
                assertThat(sum.get(120, TimeUnit.SECONDS)).isEqualTo(expected);
            }
            long prepared = prepares(servers) - preparesBefore;
            // Once where each client prepares, once on each replica its executes go to, and again
            // only where another session took the statement's connection just then. Taking the
            // pool's most recently used connection instead prepared each statement on about as
            // many connections as the clients were.
            assertThat(prepared).as("COM_STMT_PREPAREs on the backends for %d clients' one statement each", CLIENTS)
                    .isLessThanOrEqualTo(2L * CLIENTS * servers.size());
        }
    }

    /** Leaves {@code count} of the pool's connections idle, over the replicas and the loops. */
    private static void openIdleConnections(ProxyServer proxy, ExecutorService threads, int count) throws Exception {
        CyclicBarrier together = new CyclicBarrier(count);
        List<Future<?>> sleeps = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sleeps.add(threads.submit(() -> {
                try (Connection c = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = c.createStatement()) {
                    together.await(30, TimeUnit.SECONDS);
                    s.executeQuery("SELECT SLEEP(0.3)").close();
                }
                return null;
            }));
        }
        for (Future<?> sleep : sleeps) {
            sleep.get(60, TimeUnit.SECONDS);
        }
    }

    private static long prepares(List<MariaDbServer> servers) {
        return servers.stream().mapToLong(s -> s.globalStatus("Com_stmt_prepare")).sum();
    }
}
