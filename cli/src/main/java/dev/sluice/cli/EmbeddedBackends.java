package dev.sluice.cli;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
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

    static List<BackendConfig> backends(MariaDbCluster cluster) {
        return cluster.servers().stream()
                .map(server -> new BackendConfig(server.name(), new HostPort(server.host(), server.port()),
                        server.role() == Role.PRIMARY ? BackendConfig.Role.PRIMARY : BackendConfig.Role.REPLICA,
                        BackendConfig.DEFAULT_WEIGHT, BackendConfig.DEFAULT_MAX_CONNECTIONS))
                .toList();
    }

    /** Split mode, so a new user sees reads spread over the replicas at once. */
    static RoutingConfig routing() {
        return new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN);
    }

    /** The zero-config proxy: the embedded backends, user app/app, split mode. */
    static SluiceConfig config(MariaDbCluster cluster) {
        return SluiceConfig.defaults().withBackends(backends(cluster)).withUsers(users()).withRouting(routing());
    }

    static List<UserConfig> users() {
        return List.of(new UserConfig(TestUsers.APP_USER, TestUsers.APP_PASSWORD));
    }

    static String describe(MariaDbServer server) {
        return String.format("%-9s %-8s %s:%d", server.name(), server.role() == Role.PRIMARY ? "primary" : "replica",
                server.host(), server.port());
    }
}
