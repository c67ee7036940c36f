package dev.sluice.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.proxy.backend.Backend;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A client that stops reading must not make the proxy read (and buffer) the rest of a large result
 * set from the backend: reading from the backend pauses while the client's socket is full.
 */
@ExtendWith(MariaDbClusterExtension.class)
class BackpressureIT {

    /** About 200 MB of rows. */
    private static final String BIG_RESULT = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 40000)"
            + " SELECT n, REPEAT('x', 5000) FROM r";

    @Test
    void aClientThatStopsReadingStopsTheBackendToo(MariaDbCluster cluster) throws Exception {
        try (ProxyServer proxy = ProxyFixture.start(ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary()))));
             RawClient client = new RawClient(proxy.port())) {
            assertThat(client.login("app", "app").header()).isZero();
            assertThat(client.query("SET SESSION max_recursive_iterations = 100000").header()).isZero();
            Backend backend = proxy.runtime().backends().get(0);
            long before = backend.stats().bytesFromBackend();
            RawClient.RawPacket first = client.query(BIG_RESULT);
            assertThat(first.header()).as("column count").isEqualTo(2);
            // Give an unthrottled proxy every chance to pull the result set in.
            Awaitility.await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(4)).until(() -> true);
            long pulled = backend.stats().bytesFromBackend() - before;
            assertThat(pulled).as("bytes read from the backend while the client read none")
                    .isLessThan(40L << 20);
            // Reading on drains the whole result: nothing was lost while paused.
            client.read();
            client.read();
            assertThat(client.read().header()).as("EOF after the two column definitions").isEqualTo(0xFE);
            long rows = 0;
            for (RawClient.RawPacket packet = client.read(); packet.header() != 0xFE; packet = client.read()) {
                rows++;
            }
            assertThat(rows).isEqualTo(40000);
        }
    }
}
