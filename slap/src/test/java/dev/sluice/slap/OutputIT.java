package dev.sluice.slap;

import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.sluice.slap.SlapRunner.slap;
import static org.assertj.core.api.Assertions.assertThat;

/** The outputs of a real run: mysqlslap's text and CSV, and slap's additions. */
@ExtendWith(SlapServerExtension.class)
class OutputIT {

    private static final String SCHEMA = "--create-schema=" + TestUsers.TEST_SCHEMA;

    @Test
    void textBlocksPerEngineAndConcurrency(MariaDbServer server) {
        SlapCommandTest.Run run = slap(server, "-a", "-c", "1,3", "--number-of-queries=12", "-i", "2", "-e", "innodb,memory");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        String block = "Benchmark\n\tRunning for engine (\\w+)\n"
                + "\tAverage number of seconds to run all queries: \\d+\\.\\d{3} seconds\n"
                + "\tMinimum number of seconds to run all queries: \\d+\\.\\d{3} seconds\n"
                + "\tMaximum number of seconds to run all queries: \\d+\\.\\d{3} seconds\n"
                + "\tNumber of clients running queries: (\\d+)\n"
                + "\tAverage number of queries per client: (\\d+)\n\n";
        assertThat(run.out()).matches("(" + block + "){4}");
        assertThat(java.util.regex.Pattern.compile(block).matcher(run.out()).results()
                .map(m -> m.group(1) + "/" + m.group(2) + "/" + m.group(3)).toList())
                .containsExactly("innodb/1/12", "innodb/3/4", "memory/1/12", "memory/3/4");
    }

    @Test
    void csvIsAppendedToAFile(MariaDbServer server, @TempDir Path dir) throws Exception {
        Path csv = dir.resolve("runs.csv");
        for (String clients : List.of("1", "2")) {
            SlapCommandTest.Run run = slap(server, "-a", "--auto-generate-sql-load-type=write", "-c", clients,
                    "--number-of-queries=10", "--csv=" + csv);
            assertThat(run.exit()).isZero();
            assertThat(run.out()).isEmpty();
        }
        List<String> lines = Files.readAllLines(csv);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).matches(",write,\\d+\\.\\d{3},\\d+\\.\\d{3},\\d+\\.\\d{3},1,10");
        assertThat(lines.get(1)).matches(",write,\\d+\\.\\d{3},\\d+\\.\\d{3},\\d+\\.\\d{3},2,5");
    }

    @Test
    void timedRunWithIntervalLinesPercentilesAndJson(MariaDbServer server, @TempDir Path dir) throws Exception {
        Path json = dir.resolve("run.json");
        SlapCommandTest.Run run = slap(server, SCHEMA, "--query=SELECT SLEEP(0.01)", "-c", "4", "--time=2",
                "--report-interval=1", "--percentiles", "--json=" + json);
        assertThat(run.exit()).as(run.err()).isZero();
        List<String> lines = run.out().lines().toList();
        assertThat(lines.get(0)).matches("\\[ 1s \\] thds: 4 tps: [0-9.]+ qps: [0-9.]+ \\(r/w/o: [0-9.]+/0\\.00/0\\.00\\)"
                + " lat \\(ms,95%\\): [0-9.]+ err/s: 0\\.00 reconn/s: 0\\.00");
        assertThat(lines).contains("Benchmark");
        assertThat(run.out()).containsPattern("\tAverage number of seconds to run all queries: 2\\.\\d{3} seconds\n")
                .containsPattern("\tLatency per query \\(ms\\): p50 1\\d\\.\\d{3}, p95 [0-9.]+, p99 [0-9.]+, max [0-9.]+\n"
                        + "\tQueries per second: [0-9.]+\n\n");
        String report = Files.readString(json);
        Map<String, Object> parsed = ReportingTest.object(JsonText.parse(report));
        assertThat(ReportingTest.object(parsed.get("options"))).containsEntry("time_seconds", 2L);
        Map<String, Object> only = ReportingTest.object(((List<?>) parsed.get("runs")).get(0));
        assertThat(only).containsEntry("clients", 4L);
        assertThat((Long) ReportingTest.object(only.get("latency_ms")).get("count")).isPositive();
    }

    /**
     * The sweep's table and knee as a real run prints them. Where it stops depends on the machine
     * (a shared 2-core machine may stall any step), so the test checks that the printed rows, the
     * stop and the knee agree with each other by the sweep's rule; SweepTest checks the rule itself.
     */
    @Test
    void sweepDoublesClientsAndNamesTheKnee(MariaDbServer server) {
        // Every query sleeps 20 ms, so on an idle machine throughput doubles up to the maximum.
        SlapCommandTest.Run run = slap(server, SCHEMA, "--query=SELECT SLEEP(0.02)", "--number-of-queries=64",
                "--sweep=8");
        assertThat(run.exit()).as(run.err()).isZero();
        String out = run.out();
        assertThat(out).contains("Sweep: clients doubled until throughput stopped growing\n");
        Matcher row = Pattern.compile("\n +(\\d+) +([0-9.]+) +(-|[+-][0-9.]+%) ").matcher(out);
        List<Integer> clients = new ArrayList<>();
        List<Double> rates = new ArrayList<>();
        while (row.find()) {
            clients.add(Integer.parseInt(row.group(1)));
            rates.add(Double.parseDouble(row.group(2)));
        }
        assertThat(clients).as(out).isNotEmpty().isSubsetOf(1, 2, 4, 8);
        for (int i = 0; i < clients.size(); i++) {
            assertThat(clients.get(i)).as("doubled from 1").isEqualTo(1 << i);
        }
        int knee = 1;
        String stop = "reached the sweep maximum of 8 clients";
        for (int i = 1; i < clients.size(); i++) {
            if (rates.get(i) < rates.get(i - 1) * (1 + Sweep.MIN_GAIN)) {
                assertThat(i).as("the sweep stops at the first step that does not gain").isEqualTo(clients.size() - 1);
                stop = "throughput grew";
                break;
            }
            knee = clients.get(i);
        }
        if (stop.startsWith("reached")) {
            assertThat(clients).as("it went on while throughput grew").endsWith(8);
        }
        assertThat(out).contains("Knee: " + knee + " clients, the highest concurrency still gaining throughput ("
                + stop);
    }
}
