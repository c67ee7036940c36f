package dev.sluice.cli;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.config.UserConfig;
import dev.sluice.testkit.ClusterSpec;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.Role;
import dev.sluice.testkit.TestUsers;
import java.util.List;

/** The zero-config backends: an embedded MariaDB primary with two replicas, from testkit. */
final class EmbeddedBackends {

    private EmbeddedBackends() {
    }

    static MariaDbCluster start(int maxConnections) {
        return MariaDbCluster.start(ClusterSpec.builder().replicas(2).maxConnections(maxConnections).build());
    }

    /**
     * In session mode a whole session lands on one backend, writes included, and replicas are
     * read-only: so replicas get weight 0 (no sessions) and serve only once reads are split.
     */
    static List<BackendConfig> backends(MariaDbCluster cluster) {
        return cluster.servers().stream()
                .map(server -> new BackendConfig(server.name(), new HostPort(server.host(), server.port()),
                        server.role() == Role.PRIMARY ? BackendConfig.Role.PRIMARY : BackendConfig.Role.REPLICA,
                        server.role() == Role.PRIMARY ? BackendConfig.DEFAULT_WEIGHT : 0,
                        BackendConfig.DEFAULT_MAX_CONNECTIONS))
                .toList();
    }

    static List<UserConfig> users() {
        return List.of(new UserConfig(TestUsers.APP_USER, TestUsers.APP_PASSWORD));
    }

    static String describe(MariaDbServer server) {
        return String.format("%-9s %-8s %s:%d", server.name(), server.role() == Role.PRIMARY ? "primary" : "replica",
                server.host(), server.port());
    }
}
