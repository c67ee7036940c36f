package dev.sluice.proxy.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mariadb-slap}'s mixed auto-generated workload at concurrency 1, 25, 50 and 100, once
 * directly and once through the proxy: both must finish cleanly and the primary must count the
 * same statements (Com_insert, Com_select) for each. Skipped, with a message, without the tool.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MariaDbSlapIT {

    private static final List<String> COUNTERS = List.of("Com_insert", "Com_select");
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(75);

    private static List<String> arguments(int port) {
        List<String> args = new ArrayList<>(List.of("--no-defaults", "--protocol=TCP", "--host=" + ClientProxies.HOST,
                "--port=" + port, "--user=" + TestUsers.APP_USER, "--password=" + TestUsers.APP_PASSWORD,
                "--create-schema=slap_it"));
        args.addAll(List.of("--concurrency=1,25,50,100", "--iterations=1", "--number-int-cols=2", "--number-char-cols=3",
                "--auto-generate-sql", "--auto-generate-sql-add-autoincrement", "--auto-generate-sql-load-type=mixed",
                "--number-of-queries=1000", "--skip-ssl"));
        return args;
    }

    private record Measured(ExternalTool.Run run, Map<String, Long> deltas) {
    }

    private static Measured measure(ExternalTool slap, MariaDbServer primary, int port, Path work) throws Exception {
        Map<String, Long> before = primary.globalStatus();
        ExternalTool.Run run = slap.run(arguments(port), null, RUN_TIMEOUT, work);
        Map<String, Long> after = primary.globalStatus();
        Map<String, Long> deltas = new java.util.TreeMap<>();
        for (String counter : COUNTERS) {
            deltas.put(counter, after.get(counter) - before.get(counter));
        }
        return new Measured(run, deltas);
    }

    private static void assertClean(ExternalTool.Run run) {
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stderr().lines().filter(line -> !line.isBlank()).toList()).as(run.toString()).isEmpty();
        assertThat(run.stdout()).as(run.toString()).doesNotContainIgnoringCase("error");
        for (int clients : new int[] {1, 25, 50, 100}) {
            assertThat(run.stdout()).as(run.toString()).contains("Number of clients running queries: " + clients + "\n");
        }
    }

    @Test
    void mixedWorkloadCountsTheSameStatementsAsADirectRun(MariaDbCluster cluster, @TempDir Path work) throws Exception {
        ExternalTool slap = ExternalTool.require("mariadb-slap");
        Measured direct = measure(slap, cluster.primary(), cluster.primary().port(), work);
        assertClean(direct.run());
        assertThat(direct.deltas().get("Com_select")).as("the workload ran").isGreaterThanOrEqualTo(1000 / 2);
        try (ProxyServer proxy = ProxyFixture.start(ClientProxies.primaryOnly(cluster))) {
            Measured proxied = measure(slap, cluster.primary(), proxy.port(), work);
            assertClean(proxied.run());
            assertThat(proxied.deltas()).as("statements the primary ran for the proxied run vs the direct one\n"
                    + proxied.run()).isEqualTo(direct.deltas());
        }
    }
}
