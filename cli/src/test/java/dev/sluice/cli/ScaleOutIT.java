package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testkit.ClusterSpec;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.TestUsers;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/scale-out.md, run: two proxy processes (separate JVMs, started from the built cli as
 * {@code sluice proxy --config FILE}) share one config file behind haproxy in TCP mode with
 * {@code send-proxy-v2}. haproxy connects to them from 127.0.0.3, the only trusted network; the
 * clients come from 127.0.0.10 and up. Sessions spread over both proxies, each proxy and the
 * MariaDB behind them (started with proxy_protocol_networks) see every client's own address, the
 * per-proxy counters add up, and a change to the shared file reaches both. Skipped, saying so,
 * where haproxy is not installed.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ScaleOutIT {

    private static final int CLIENTS = 8;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Pattern LISTENING = Pattern.compile("Sluice is listening on [0-9.]+:([0-9]+)");
    private static final Pattern METRICS = Pattern.compile("Metrics: http://[0-9.]+:([0-9]+)/metrics");
    private static final Pattern CLIENT = Pattern.compile("\"client\":\"([0-9.]+):[0-9]+\"");
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    static Path work;
    private static MariaDbCluster backend;
    private static Path config;
    private static final List<Daemon> daemons = new ArrayList<>();
    private static final List<Integer> adminPorts = new ArrayList<>();
    private static int haproxyPort;

    @BeforeAll
    static void start() throws Exception {
        Tool haproxy = Tool.require("haproxy", "haproxy");
        backend = MariaDbCluster.start(ClusterSpec.builder().replicas(0).maxConnections(100).createTestSchema(true)
                .extraServerArgs("--proxy-protocol-networks=127.0.0.1").build());
        config = work.resolve("sluice.yaml");
        Files.writeString(config, config(1));
        List<Integer> proxyPorts = new ArrayList<>();
        for (String name : List.of("sluice1", "sluice2")) {
            daemons.add(Daemon.start(name, work.resolve(name), proxyCommand()));
        }
        for (Daemon proxy : List.copyOf(daemons)) {
            proxyPorts.add(Integer.parseInt(proxy.await(LISTENING, START_TIMEOUT)));
            adminPorts.add(Integer.parseInt(proxy.await(METRICS, START_TIMEOUT)));
        }
        haproxyPort = freePort();
        Path haproxyConfig = work.resolve("haproxy.cfg");
        Files.writeString(haproxyConfig, haproxyConfig(haproxyPort, proxyPorts));
        daemons.add(0, Daemon.start("haproxy", work.resolve("haproxy"),
                List.of(haproxy.path().toString(), "-f", haproxyConfig.toString(), "-db")));
        // Ready when a connection through it gets a proxy's greeting.
        Awaitility.await("haproxy relays a greeting").atMost(START_TIMEOUT).ignoreExceptions()
                .untilAsserted(() -> assertThat(firstByte(haproxyPort)).isPositive());
    }

    @AfterAll
    static void stop() throws InterruptedException {
        for (Daemon daemon : daemons) {
            daemon.close();
        }
        if (backend != null) {
            backend.close();
        }
    }

    @Test
    void sessionsSpreadOverBothProxiesAndEveryoneSeesTheRealClient() throws Exception {
        List<Connection> clients = new ArrayList<>();
        try {
            Set<String> expected = new TreeSet<>();
            for (int i = 0; i < CLIENTS; i++) {
                String host = "127.0.0." + (10 + i);
                expected.add(host);
                Connection c = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + haproxyPort + "/"
                        + TestUsers.TEST_SCHEMA + "?sslMode=DISABLED&socketTimeout=30000&localSocketAddress=" + host,
                        TestUsers.APP_USER, TestUsers.APP_PASSWORD);
                clients.add(c);
                assertThat(query(c, "SELECT USER()")).as("what MariaDB saw, through haproxy and a proxy")
                        .isEqualTo("app@" + host);
            }

            List<String> first = sessionHosts(adminPorts.get(0));
            List<String> second = sessionHosts(adminPorts.get(1));

            assertThat(first).as("sessions on the first proxy").isNotEmpty();
            assertThat(second).as("sessions on the second proxy").isNotEmpty();
            Set<String> all = new TreeSet<>(first);
            all.addAll(second);
            assertThat(first.size() + second.size()).isEqualTo(CLIENTS);
            assertThat(all).as("each proxy shows the clients' own addresses, never haproxy's 127.0.0.3")
                    .isEqualTo(expected);
            // What a Prometheus sum() over the fleet gives.
            assertThat(metric(0, "sluice_sessions") + metric(1, "sluice_sessions")).isEqualTo(CLIENTS);
            assertThat(metric(0, "sluice_backend_queries_total") + metric(1, "sluice_backend_queries_total"))
                    .isGreaterThanOrEqualTo(CLIENTS);
        } finally {
            for (Connection c : clients) {
                c.close();
            }
        }
    }

    @Test
    void theMariadbCliGoesThroughTheSameWay() throws Exception {
        Tool mariadb = Tool.require("mariadb", "mariadb-client");
        Tool.Run run = mariadb.run(work, Duration.ofSeconds(60), List.of("--no-defaults", "--protocol=TCP",
                "--host=127.0.0.1", "--port=" + haproxyPort, "--user=" + TestUsers.APP_USER,
                "--password=" + TestUsers.APP_PASSWORD, "--batch", "--skip-column-names", "-e", "SELECT USER()"));

        assertThat(run.exit()).as(run.toString()).isZero();
        // haproxy connects from 127.0.0.3: a proxy that ignored the header would name that.
        assertThat(run.out().strip()).as(run.toString()).isEqualTo("app@127.0.0.1");
    }

    @Test
    void oneChangeToTheSharedFileReachesEveryProxy() throws Exception {
        Files.writeString(config, config(3));

        for (int admin : adminPorts) {
            Awaitility.await("the reload on admin port " + admin).atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> get(admin, "/api/backends").contains("\"weight\":3"));
        }
        assertThat(daemons).allMatch(Daemon::alive);
    }

    /** The one config every proxy reads; only the primary's weight changes between versions. */
    private static String config(int weight) {
        return """
                # One file for the whole fleet (in Kubernetes, a ConfigMap mounted in every pod).
                listen: 127.0.0.1:0
                proxy_protocol_networks: [127.0.0.3]
                users:
                  - name: %s
                    password: %s
                backends:
                  - name: primary
                    address: 127.0.0.1:%d
                    weight: %d
                    send_proxy_protocol: true
                admin:
                  http: 127.0.0.1:0
                  sql: 127.0.0.1:0
                """.formatted(TestUsers.APP_USER, TestUsers.APP_PASSWORD, backend.primary().port(), weight);
    }

    private static String haproxyConfig(int port, List<Integer> proxies) {
        StringBuilder cfg = new StringBuilder("""
                global
                    maxconn 200
                defaults
                    mode tcp
                    timeout connect 5s
                    timeout client 60s
                    timeout server 60s
                frontend mysql
                    bind 127.0.0.1:%d
                    default_backend sluice
                backend sluice
                    balance roundrobin
                    source 127.0.0.3
                """.formatted(port));
        for (int i = 0; i < proxies.size(); i++) {
            cfg.append("    server sluice").append(i + 1).append(" 127.0.0.1:").append(proxies.get(i))
                    .append(" send-proxy-v2 check inter 2s\n");
        }
        return cfg.toString();
    }

    /** The built cli, as ./sluice runs it: its classes and the runtime jars the package phase copied. */
    private static List<String> proxyCommand() {
        Path classes = Path.of("target", "classes").toAbsolutePath();
        Path lib = Path.of("target", "lib").toAbsolutePath();
        assertThat(lib).as("the cli's runtime jars (mvn package copies them)").isDirectory();
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx192m",
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", classes + ":" + lib + "/*", "dev.sluice.cli.Main",
                "proxy", "--config", config.toString());
    }

    private static List<String> sessionHosts(int admin) throws Exception {
        List<String> hosts = new ArrayList<>();
        Matcher m = CLIENT.matcher(get(admin, "/api/sessions"));
        while (m.find()) {
            hosts.add(m.group(1));
        }
        return hosts;
    }

    /** The sum of every series of one metric in a proxy's /metrics. */
    private static double metric(int proxy, String name) throws Exception {
        double sum = 0;
        for (String line : get(adminPorts.get(proxy), "/metrics").lines().toList()) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    private static String get(int port, String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    private static String query(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rows = s.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }

    /** The first byte a connection to {@code port} receives: a greeting's length. */
    private static int firstByte(int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
            socket.setSoTimeout(5_000);
            InputStream in = socket.getInputStream();
            return in.read();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
