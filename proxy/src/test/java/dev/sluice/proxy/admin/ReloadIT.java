package dev.sluice.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.ConfigLoader;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.MariaDbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Config reloads with sessions open: backends added, reweighted and removed; a bad file changes nothing. */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReloadIT {

    @TempDir
    Path dir;

    private static String yaml(MariaDbCluster cluster, String replicas) {
        MariaDbServer primary = cluster.primary();
        return "listen: 127.0.0.1:0\nusers: [{name: app, password: app}]\nrouting: {mode: split}\n"
                + "admin: {http: \"127.0.0.1:0\", sql: \"127.0.0.1:0\"}\nhealth: {interval: 200ms}\nbackends:\n"
                + "  - {name: primary, address: \"127.0.0.1:" + primary.port() + "\"}\n" + replicas;
    }

    private static String replica(MariaDbCluster cluster, int index, int weight) {
        return "  - {name: replica" + (index + 1) + ", role: replica, weight: " + weight + ", address: \"127.0.0.1:"
                + cluster.replicas().get(index).port() + "\"}\n";
    }

    private static int port(Connection session) throws Exception {
        try (Statement s = session.createStatement(); ResultSet rs = s.executeQuery("SELECT @@port")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void backendsChangeWithoutDroppingASession(MariaDbCluster cluster) throws Exception {
        Path file = dir.resolve("sluice.yaml");
        Files.writeString(file, yaml(cluster, replica(cluster, 0, 1)));
        try (ProxyServer proxy = ProxyServer.start(ConfigLoader.load(file), file)) {
            List<Connection> sessions = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                sessions.add(ProxyFixture.connect(proxy, null, ""));
                assertThat(port(sessions.get(i))).isEqualTo(cluster.replicas().get(0).port());
            }
            Backend replica1 = proxy.runtime().backends().get(1);

            Files.writeString(file, yaml(cluster, replica(cluster, 0, 0) + replica(cluster, 1, 2)));
            String summary = proxy.admin().reloader().reload();
            assertThat(summary).contains("added [replica2]", "changed [replica1]");
            assertThat(proxy.runtime().backends()).extracting(Backend::name).containsExactly("primary", "replica1", "replica2");
            assertThat(proxy.runtime().backends().get(1)).as("kept, with its counters").isSameAs(replica1);
            assertThat(replica1.weight()).isZero();
            for (Connection session : sessions) {
                assertThat(port(session)).as("reads now go to replica2 only").isEqualTo(cluster.replicas().get(1).port());
            }

            Files.writeString(file, yaml(cluster, replica(cluster, 0, 1)) + "  - {name: bad, address: \"127.0.0.1:1\", weight: heavy}\n");
            assertThatThrownBy(() -> proxy.admin().reloader().reload())
                    .hasMessageStartingWith("the old config stays: " + file + ":9:49: ")
                    .hasMessageContaining("backends[2].weight: \"heavy\" is not a number");
            assertThat(proxy.runtime().backends()).hasSize(3);

            // The file watcher (every 2 s) picks up a fixed file by itself: replica2 goes, replica1 is back.
            Files.writeString(file, yaml(cluster, replica(cluster, 0, 1)));
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> proxy.runtime().backends().size() == 2);
            for (Connection session : sessions) {
                assertThat(port(session)).isEqualTo(cluster.replicas().get(0).port());
                session.close();
            }
            assertThat(proxy.runtime().stats().connectionsAccepted()).as("no session had to log in again").isEqualTo(3);
        }
    }
}
