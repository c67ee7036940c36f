package dev.sluice.cli;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.UserConfig;
import dev.sluice.testkit.ClusterSpec;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.Role;
import dev.sluice.testkit.TestUsers;
import java.util.List;

/**
 * The zero-config backends: an embedded MariaDB primary with two replicas, from testkit. The only
 * class that touches testkit, which a release ships in its optional demo part: the commands check
 * {@link DemoPart} before they start these.
 */
final class EmbeddedBackends implements AutoCloseable {

    private final MariaDbCluster cluster;

    private EmbeddedBackends(MariaDbCluster cluster) {
        this.cluster = cluster;
    }

    static EmbeddedBackends start(int maxConnections) {
        return new EmbeddedBackends(MariaDbCluster.start(ClusterSpec.builder().replicas(2)
                .maxConnections(maxConnections).build()));
    }

    /** The zero-config proxy: these backends, user app/app, split mode. */
    SluiceConfig config() {
        return SluiceConfig.defaults().withBackends(backends()).withUsers(users()).withRouting(routing());
    }

    /** One line per backend: name, role, address. */
    List<String> describe() {
        return cluster.servers().stream().map(server -> String.format("%-9s %-8s %s:%d", server.name(),
                server.role() == Role.PRIMARY ? "primary" : "replica", server.host(), server.port())).toList();
    }

    private List<BackendConfig> backends() {
        return cluster.servers().stream()
                .map(server -> new BackendConfig(server.name(), new HostPort(server.host(), server.port()),
                        server.role() == Role.PRIMARY ? BackendConfig.Role.PRIMARY : BackendConfig.Role.REPLICA,
                        BackendConfig.DEFAULT_WEIGHT, BackendConfig.DEFAULT_MAX_CONNECTIONS))
                .toList();
    }

    /**
     * Split mode, so a new user sees reads spread over the replicas at once; a session reads its
     * own writes (mysqlslap creates its table, then reads the keys back on the same connection,
     * before the replicas may have it).
     */
    private static RoutingConfig routing() {
        return new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN,
                RoutingConfig.ReadYourWrites.GTID, RoutingConfig.DEFAULT_PRIMARY_WINDOW,
                RoutingConfig.DEFAULT_GTID_WAIT_TIMEOUT, List.of());
    }

    private static List<UserConfig> users() {
        return List.of(new UserConfig(TestUsers.APP_USER, TestUsers.APP_PASSWORD));
    }

    @Override
    public void close() {
        cluster.close();
    }
}
