package dev.sluice.proxy.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RoutingConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Split mode shares backend connections between statements. A result larger than the client's
 * socket can take pauses reading from the backend; when that result ends while the client is still
 * behind, the connection goes back to the pool paused, and whichever statement gets it next hangs.
 * Every statement after a large result, on this session or another, must be answered.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SplitLargeResultIT {

    private static final int ROWS = 100_000;
    private static MariaDbCluster cluster;
    private static ProxyServer proxy;
    @TempDir
    static Path work;

    @BeforeAll
    static void start(MariaDbCluster shared) {
        cluster = shared;
        proxy = ProxyFixture.start(ProxyFixture.config(ProxyFixture.backends(cluster))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN)));
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    /** The issue's own command: it hung in 17 of 20 runs. */
    @Test
    void theMariadbClientGetsALargeResultAndTheNextStatement() throws Exception {
        ExternalTool mariadb = ExternalTool.require("mariadb");
        for (int run = 0; run < 10; run++) {
            List<String> args = new ArrayList<>(MariaDbCliIT.login(proxy.port(), TestUsers.APP_USER,
                    TestUsers.APP_PASSWORD, "sluice_test", "-N", "--skip-ssl"));
            args.addAll(List.of("-e", "SELECT seq FROM seq_1_to_" + ROWS + "; SELECT 'after'"));
            ExternalTool.Run result = mariadb.run(args, null, Duration.ofSeconds(20), work);
            assertThat(result.exitCode()).as(result.toString()).isZero();
            String out = result.stdout();
            assertThat(out.lines().count()).as("run %d: rows and the second result", run).isEqualTo(ROWS + 1);
            assertThat(out).endsWith("after\n");
        }
        assertPoolsAtRest();
    }

    /**
     * Clients that pause while reading a streamed result (so the proxy pauses the backend), then
     * run small statements: with ten sessions over a few pooled connections, any connection left
     * paused is soon handed to a statement that would never be answered.
     */
    @Test
    void slowReadersLeaveEveryPooledConnectionReadable() throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(10);
        try {
            List<Future<Long>> sums = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                sums.add(clients.submit(SplitLargeResultIT::slowReadThenSmallStatements));
            }
            long expected = (long) ROWS * (ROWS + 1) / 2;
            for (Future<Long> sum : sums) {
                assertThat(sum.get(120, TimeUnit.SECONDS)).isEqualTo(expected);
            }
        } finally {
            clients.shutdownNow();
        }
        assertPoolsAtRest();
    }

    private static long slowReadThenSmallStatements() throws Exception {
        String url = ClientProxies.connectorJ(proxy.port(), "sluice_test", "socketTimeout=20000");
        try (Connection c = DriverManager.getConnection(url, TestUsers.APP_USER, TestUsers.APP_PASSWORD);
             Statement s = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
            long sum = 0;
            for (int round = 0; round < 3; round++) {
                s.setFetchSize(Integer.MIN_VALUE);
                sum = 0;
                try (ResultSet rows = s.executeQuery("SELECT seq, REPEAT('x', 200) FROM seq_1_to_" + ROWS)) {
                    while (rows.next()) {
                        long seq = rows.getLong(1);
                        sum += seq;
                        if (seq % 25_000 == 0) {
                            Thread.sleep(200);
                        }
                    }
                }
                s.setFetchSize(0);
                for (int i = 0; i < 20; i++) {
                    try (ResultSet one = s.executeQuery("SELECT " + i)) {
                        assertThat(one.next()).isTrue();
                        assertThat(one.getInt(1)).isEqualTo(i);
                    }
                }
            }
            return sum;
        }
    }

    /** Once every client has gone, no backend connection is still in use and none is lost. */
    private static void assertPoolsAtRest() {
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            for (Backend backend : proxy.runtime().backends()) {
                BackendPool pool = proxy.runtime().pool(backend);
                assertThat(backend.openConnections().get()).as("%s: open connections are all idle", backend.name())
                        .isEqualTo(pool.idleCount());
                assertThat(pool.waiting()).isZero();
            }
        });
    }
}
