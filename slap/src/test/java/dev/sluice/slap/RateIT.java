package dev.sluice.slap;

import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --rate} is open loop: against a server slowed on purpose (each query sleeps 50 ms, so
 * 2 clients serve 40 queries per second) an arrival rate of 100 per second builds a queue, and
 * the latency measured from each query's intended start grows with it, interval after interval.
 * Below capacity the same server answers in about the sleep time.
 */
@ExtendWith(SlapServerExtension.class)
class RateIT {

    private static final Pattern P95 = Pattern.compile("lat \\(ms,95%\\): ([0-9.]+)");

    private static SlapOptions.Builder slowQuery(MariaDbServer server) {
        return SlapOptions.builder().host(server.host()).port(server.port()).user(TestUsers.APP_USER)
                .password(TestUsers.APP_PASSWORD).createSchema(TestUsers.TEST_SCHEMA).query("SELECT SLEEP(0.05)")
                .concurrency(2).percentiles(true);
    }

    @Test
    void latencyGrowsWithTheQueueAboveCapacity(MariaDbServer server) {
        StringWriter out = new StringWriter();
        SlapResult result = Slap.run(slowQuery(server).rate(100).numberOfQueries(160).reportIntervalSeconds(1).build(),
                new PrintWriter(out), new PrintWriter(new StringWriter()));
        ConcurrencyResult run = result.runs().get(0);
        assertThat(run.totalQueries()).isEqualTo(160);
        // The last of 160 queries was due at 1.6 s and is served at about 4 s.
        assertThat(run.latencyMicros().getMaxValue()).isGreaterThan(1_500_000);
        assertThat(run.latencyMicros().getValueAtPercentile(50)).isGreaterThan(500_000);

        List<Double> p95 = P95.matcher(out.toString()).results().map(m -> Double.parseDouble(m.group(1))).toList();
        assertThat(p95).hasSizeGreaterThanOrEqualTo(3);
        assertThat(p95.get(2)).isGreaterThan(p95.get(0) + 300);
        assertThat(out.toString()).contains("] thds: 2 tps: ");
    }

    @Test
    void belowCapacityLatencyIsTheServiceTime(MariaDbServer server) {
        SlapResult result = Slap.run(slowQuery(server).rate(20).numberOfQueries(30).build(),
                new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        ConcurrencyResult run = result.runs().get(0);
        assertThat(run.totalQueries()).isEqualTo(30);
        assertThat(run.latencyMicros().getValueAtPercentile(50)).isBetween(50_000L, 150_000L);
        // 30 queries at 20 per second take 1.5 s whatever the clients could do.
        assertThat(run.avgMillis()).isBetween(1400L, 3000L);
    }
}
