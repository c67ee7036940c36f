package dev.sluice.proxy;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.UserConfig;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/** Builds configs around a testkit cluster and starts the proxy on a free loopback port. */
public final class ProxyFixture {

    private ProxyFixture() {
    }

    public static List<BackendConfig> backends(MariaDbCluster cluster) {
        List<BackendConfig> backends = new ArrayList<>();
        for (MariaDbServer server : cluster.servers()) {
            backends.add(new BackendConfig(server.name(), new HostPort(server.host(), server.port()),
                    server.role() == dev.sluice.testkit.Role.PRIMARY ? BackendConfig.Role.PRIMARY : BackendConfig.Role.REPLICA,
                    1, 200));
        }
        return backends;
    }

    public static BackendConfig backend(MariaDbServer server) {
        return new BackendConfig(server.name(), new HostPort(server.host(), server.port()),
                server.role() == dev.sluice.testkit.Role.PRIMARY ? BackendConfig.Role.PRIMARY : BackendConfig.Role.REPLICA,
                1, 200);
    }

    /** The proxy on 127.0.0.1:0, users app and app2 configured, in front of {@code backends}. */
    public static SluiceConfig config(List<BackendConfig> backends) {
        return SluiceConfig.defaults()
                .withListen(new HostPort("127.0.0.1", 0))
                .withUsers(List.of(new UserConfig(TestUsers.APP_USER, TestUsers.APP_PASSWORD),
                        new UserConfig(TestUsers.APP2_USER, TestUsers.APP2_PASSWORD)))
                .withBackends(backends);
    }

    /**
     * Split mode on the primary alone, with one backend connection and one event loop: every
     * session shares that connection, so whatever a session leaves on it shows in the next.
     */
    public static SluiceConfig splitOnOneConnection(MariaDbCluster cluster) {
        BackendConfig primary = backend(cluster.primary());
        return config(List.of(new BackendConfig(primary.name(), primary.address(), primary.role(), 1, 1)))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN))
                .withEventLoops(1);
    }

    public static ProxyServer start(SluiceConfig config) {
        try {
            return ProxyServer.start(config);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static ProxyServer start(SluiceConfig config, UnaryOperator<SluiceConfig> change) {
        return start(change.apply(config));
    }

    public static String url(ProxyServer proxy, String database, String options) {
        return "jdbc:mysql://127.0.0.1:" + proxy.port() + "/" + (database == null ? "" : database)
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true" + (options.isEmpty() ? "" : "&" + options);
    }

    public static Connection connect(ProxyServer proxy, String database, String options) throws SQLException {
        return DriverManager.getConnection(url(proxy, database, options), TestUsers.APP_USER, TestUsers.APP_PASSWORD);
    }
}
