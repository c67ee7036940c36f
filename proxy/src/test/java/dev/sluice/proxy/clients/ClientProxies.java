package dev.sluice.proxy.clients;

import dev.sluice.config.ClientTlsConfig;
import dev.sluice.config.LimitsConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TlsConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

/**
 * Proxy configs for the real-client tests. Sessions go to the primary only: in session mode a
 * write session balanced onto a read-only replica would fail for reasons that are not the client's.
 */
final class ClientProxies {

    static final String HOST = "127.0.0.1";
    /** A read that waits longer than this fails the test instead of hanging it. */
    static final int SOCKET_TIMEOUT_MILLIS = 60_000;

    private ClientProxies() {
    }

    /** Users app and app2 configured (the proxy authenticates), the primary as the only backend. */
    static SluiceConfig primaryOnly(MariaDbCluster cluster) {
        return ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary())));
    }

    /** No users: the handshake is relayed to the backend. */
    static SluiceConfig passThrough(SluiceConfig config) {
        return config.withUsers(List.of());
    }

    static SluiceConfig localInfile(SluiceConfig config, boolean allowed) {
        LimitsConfig limits = config.limits();
        return config.withLimits(new LimitsConfig(limits.maxClientConnections(), limits.backendQueueSize(), allowed,
                limits.maxPacketSize()));
    }

    /** TLS towards clients with the self-signed certificate the proxy generates at start. */
    static SluiceConfig clientTls(SluiceConfig config, boolean required) {
        TlsConfig tls = new TlsConfig(new ClientTlsConfig(true, Optional.empty(), Optional.empty(), required),
                config.tls().backend());
        return config.withTls(tls);
    }

    /** A Connector/J URL without credentials; TLS off unless {@code options} say otherwise. */
    static String connectorJ(int port, String database, String options) {
        return "jdbc:mysql://" + HOST + ":" + port + "/" + (database == null ? "" : database)
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true&socketTimeout=" + SOCKET_TIMEOUT_MILLIS
                + (options.isEmpty() ? "" : "&" + options);
    }

    /** A MariaDB Connector/J URL without credentials. */
    static String mariaDb(int port, String database, String options) {
        return "jdbc:mariadb://" + HOST + ":" + port + "/" + (database == null ? "" : database)
                + "?socketTimeout=" + SOCKET_TIMEOUT_MILLIS + (options.isEmpty() ? "" : "&" + options);
    }

    /** Runs statements as the administrator, e.g. to create a schema both sides then share. */
    static void admin(MariaDbServer server, String... statements) throws SQLException {
        try (Connection c = server.openAdmin(); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    /** Kills (KILL CONNECTION) the server's connections running a statement that contains {@code marker}. */
    static int killQueriesContaining(MariaDbServer server, String marker) throws SQLException {
        int killed = 0;
        try (Connection c = server.openAdmin(); Statement s = c.createStatement();
             java.sql.ResultSet ids = c.createStatement().executeQuery("SELECT id FROM information_schema.processlist"
                     + " WHERE info LIKE '%" + marker + "%' AND id <> CONNECTION_ID()")) {
            while (ids.next()) {
                s.execute("KILL CONNECTION " + ids.getLong(1));
                killed++;
            }
        }
        return killed;
    }
}
