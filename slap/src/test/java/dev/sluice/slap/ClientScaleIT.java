package dev.sluice.slap;

import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 2,000 clients on virtual threads: all connect, all run, none fails. Each sleeps two seconds on
 * the server, so the run only ends in seconds if the clients really wait at the same time: carrier
 * threads pinned by the driver would serialise them (2,000 s on two cores). On two shared cores
 * connecting 2,000 clients takes a few seconds itself, so the first ones may be done before the
 * last ones connect: at least half must have been connected at the same moment.
 */
@ExtendWith(SlapServerExtension.class)
class ClientScaleIT {

    private static final int CLIENTS = 2000;

    @BeforeAll
    static void warmUp(MariaDbServer server) {
        SlapRunner.warmUp(server);
    }

    @Test
    void twoThousandClientsRunConcurrentlyWithoutErrors(MariaDbServer server) {
        SlapOptions options = SlapOptions.builder().host(server.host()).port(server.port()).user(TestUsers.APP_USER)
                .password(TestUsers.APP_PASSWORD).createSchema(TestUsers.TEST_SCHEMA).query("SELECT SLEEP(2)")
                .concurrency(CLIENTS).percentiles(true).build();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        SlapResult[] result = new SlapResult[1];
        Map<String, Long> grown = SlapRunner.deltas(server,
                () -> result[0] = Slap.run(options, new PrintWriter(out), new PrintWriter(err)), "Com_select", "Connections");

        assertThat(err.toString()).isEmpty();
        ConcurrencyResult run = result[0].runs().get(0);
        assertThat(run.errorCount()).isZero();
        assertThat(run.failedConnectCount()).isZero();
        assertThat(run.totalQueries()).isEqualTo(CLIENTS);
        assertThat(run.latencyMicros().getTotalCount()).isEqualTo(CLIENTS);
        assertThat(run.avgMillis()).as("2000 two-second sleeps side by side").isBetween(2000L, 30_000L);
        assertThat(grown).containsEntry("Com_select", (long) CLIENTS).containsEntry("Connections", CLIENTS + 1L);
        assertThat(server.globalStatus("Max_used_connections")).isGreaterThanOrEqualTo(CLIENTS / 2);
        assertThat(out.toString()).contains("\tNumber of clients running queries: 2000\n"
                + "\tAverage number of queries per client: 1\n\tLatency per query (ms): p50 ");
    }
}
