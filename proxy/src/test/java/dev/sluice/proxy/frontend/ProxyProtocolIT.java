package dev.sluice.proxy.frontend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.sluice.config.AdminConfig;
import dev.sluice.config.BackendConfig;
import dev.sluice.config.CaptureConfig;
import dev.sluice.config.IpNetwork;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TimeoutsConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The proxy behind a load balancer that speaks the PROXY protocol ({@link HeaderRelay}, on
 * 127.0.0.1), with Connector/J clients bound to other loopback addresses (127.0.0.2, .3) so the
 * real client differs from the balancer: sessions, capture, login errors and, through
 * send_proxy_protocol, MariaDB itself ({@code USER()}) name the client, and the refusals of a
 * trusted peer without a header and of a header from an untrusted peer reach real clients.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ProxyProtocolIT {

    private static final InetAddress BALANCER = loopback(1);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static MariaDbCluster cluster;
    @TempDir
    static Path work;

    /** MariaDB takes PROXY headers from the proxy; a connection without one (every other test's) goes on as before. */
    @BeforeAll
    static void backendsTakeHeaders(MariaDbCluster shared) throws SQLException {
        cluster = shared;
        for (MariaDbServer server : cluster.servers()) {
            try (Connection c = server.openAdmin(); Statement s = c.createStatement()) {
                s.execute("SET GLOBAL proxy_protocol_networks = '127.0.0.1'");
            }
        }
    }

    @AfterAll
    static void backendsAsBefore() throws SQLException {
        for (MariaDbServer server : cluster.servers()) {
            try (Connection c = server.openAdmin(); Statement s = c.createStatement()) {
                s.execute("SET GLOBAL proxy_protocol_networks = ''");
            }
        }
    }

    @ParameterizedTest(name = "PROXY v{0}")
    @ValueSource(ints = {1, 2})
    void sessionModeKnowsTheClientTheHeaderNames(int version) throws Exception {
        Path capture = work.resolve("capture-v" + version + ".jsonl");
        SluiceConfig config = config(RoutingConfig.Mode.SESSION).withCapture(CaptureConfig.jsonl(capture))
                .withAdmin(AdminConfig.onFreePorts("admin", "admin-password"));
        try (ProxyServer proxy = ProxyFixture.start(config);
             HeaderRelay relay = new HeaderRelay(proxy.address(), BALANCER, version);
             Connection c = connect(relay.port(), 2, TestUsers.APP_PASSWORD)) {
            int clientPort = relay.clients().get(0).getPort();

            assertThat(query(c, "SELECT USER()")).as("what MariaDB saw").isEqualTo("app@127.0.0.2");
            String sessions = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + proxy.admin().httpAddress().getPort() + "/api/sessions")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertThat(sessions).contains("\"client\":\"127.0.0.2:" + clientPort + "\"").doesNotContain("127.0.0.1:");
            assertThatExceptionOfType(SQLException.class).isThrownBy(() -> connect(relay.port(), 3, "not-app"))
                    .withMessageContaining("Access denied for user 'app'@'127.0.0.3' (using password: YES)");
            c.close();
            Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(Files.readString(capture))
                    .contains("\"client\":\"127.0.0.2:" + clientPort + "\"", "SELECT USER()"));
        }
    }

    @Test
    void splitModeKeepsEachClientsAddressOnEveryBackend() throws Exception {
        try (ProxyServer proxy = ProxyFixture.start(config(RoutingConfig.Mode.SPLIT));
             HeaderRelay relay = new HeaderRelay(proxy.address(), BALANCER, 2);
             Connection two = connect(relay.port(), 2, TestUsers.APP_PASSWORD);
             Connection three = connect(relay.port(), 3, TestUsers.APP_PASSWORD)) {
            for (int i = 0; i < 4; i++) {
                // Interleaved, on pooled connections: a connection opened for one client is never another's.
                assertThat(query(two, "SELECT USER()")).isEqualTo("app@127.0.0.2");
                assertThat(query(three, "SELECT USER()")).isEqualTo("app@127.0.0.3");
                assertThat(query(two, "/* sluice:primary */ SELECT USER()")).isEqualTo("app@127.0.0.2");
                assertThat(query(three, "/* sluice:primary */ SELECT USER()")).isEqualTo("app@127.0.0.3");
            }
        }
    }

    @Test
    void passThroughLoginsAreNamedToTheBackendToo() throws Exception {
        SluiceConfig config = config(RoutingConfig.Mode.SESSION).withUsers(List.of());
        try (ProxyServer proxy = ProxyFixture.start(config);
             HeaderRelay relay = new HeaderRelay(proxy.address(), BALANCER, 2);
             Connection c = connect(relay.port(), 2, TestUsers.APP_PASSWORD)) {
            assertThat(query(c, "SELECT USER()")).isEqualTo("app@127.0.0.2");
        }
    }

    @Test
    void aTrustedPeerWithoutAHeaderIsRefusedInPlaceOfTheGreeting() throws Exception {
        try (ProxyServer proxy = ProxyFixture.start(config(RoutingConfig.Mode.SESSION))) {
            assertThatExceptionOfType(SQLException.class).isThrownBy(() -> connect(proxy.port(), 1, TestUsers.APP_PASSWORD))
                    .satisfies(e -> assertThat(e.getErrorCode()).isEqualTo(1130))
                    .withMessageContaining("Host '127.0.0.1' is not allowed to connect without a PROXY protocol header");
            assertThat(proxy.runtime().stats().protocolErrors()).isOne();
        }
    }

    @Test
    void aHeaderFromAnUntrustedPeerIsRefused() throws Exception {
        try (ProxyServer proxy = ProxyFixture.start(config(RoutingConfig.Mode.SESSION));
             HeaderRelay untrusted = new HeaderRelay(proxy.address(), loopback(4), 2)) {
            assertThatExceptionOfType(SQLException.class).isThrownBy(() -> connect(untrusted.port(), 2, TestUsers.APP_PASSWORD))
                    .satisfies(e -> assertThat(e.getErrorCode()).isEqualTo(1130))
                    .withMessageContaining("Host '127.0.0.4' is not allowed to send a PROXY protocol header");
        }
    }

    @Test
    void anUntrustedPeerWithoutAHeaderIsAnOrdinaryClient() throws Exception {
        try (ProxyServer proxy = ProxyFixture.start(config(RoutingConfig.Mode.SESSION));
             Connection c = connect(proxy.port(), 2, TestUsers.APP_PASSWORD)) {
            assertThat(query(c, "SELECT USER()")).as("named to MariaDB by the proxy's own header").isEqualTo("app@127.0.0.2");
        }
    }

    /** The proxy trusts 127.0.0.1 only, waits 2 s for a header, and names each client to every backend. */
    private static SluiceConfig config(RoutingConfig.Mode mode) {
        List<BackendConfig> backends = (mode == RoutingConfig.Mode.SPLIT ? ProxyFixture.backends(cluster)
                : List.of(ProxyFixture.backend(cluster.primary()))).stream().map(b -> b.withSendProxyProtocol(true)).toList();
        TimeoutsConfig t = TimeoutsConfig.defaults();
        return ProxyFixture.config(backends)
                .withRouting(new RoutingConfig(mode, RoutingConfig.Balancer.ROUND_ROBIN))
                .withTimeouts(new TimeoutsConfig(t.connect(), Duration.ofSeconds(2), t.clientIdle(), t.backendQueue(),
                        t.poolIdle(), t.shutdown(), t.backendRetry(), t.query()))
                .withProxyProtocolNetworks(List.of(IpNetwork.parse("127.0.0.1")));
    }

    /** Connector/J from 127.0.0.{@code host}. */
    private static Connection connect(int port, int host, String password) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port + "/" + TestUsers.TEST_SCHEMA
                + "?sslMode=DISABLED&socketTimeout=30000&localSocketAddress=127.0.0." + host,
                TestUsers.APP_USER, password);
    }

    private static String query(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rows = s.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }

    private static InetAddress loopback(int last) {
        try {
            return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) last});
        } catch (java.net.UnknownHostException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
