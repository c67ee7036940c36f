package dev.sluice.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HealthConfig;
import dev.sluice.config.HostPort;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TimeoutsConfig;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Split mode's logins share the proof that a backend takes their user and schema: clients
 * connecting at once make one backend login between them, not one each, and a schema that does
 * not exist still fails the login with the server's 1049; their statements, arriving at once,
 * share the connections as they come back instead of a backend login each.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(120)
class SplitLoginsIT {

    private static final int CLIENTS = 200;
    private static MariaDbCluster cluster;

    @BeforeAll
    static void cluster(MariaDbCluster shared) {
        cluster = shared;
    }

    private static ProxyServer splitProxy() {
        return ProxyFixture.start(ProxyFixture.config(ProxyFixture.backends(cluster))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN)));
    }

    private static long backendLogins() {
        return cluster.servers().stream().mapToLong(s -> s.globalStatus("Connections")).sum();
    }

    @Test
    void clientsLoggingInAtOnceMakeOneBackendLoginBetweenThem() throws Exception {
        try (ProxyServer proxy = splitProxy(); ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            long before = backendLogins();
            List<RawClient> clients = loggedInAtOnce(proxy, threads);
            long made = backendLogins() - before;
            for (RawClient client : clients) {
                client.close();
            }
            // One login's proof, and the health checks' own connections meanwhile.
            assertThat(made).as("backend logins for %d client logins", CLIENTS).isLessThan(CLIENTS / 10);
        }
    }

    /**
     * Statements that find no idle connection wait for the first to come on their event loop, one
     * given back or one logged in for them, with a few logins under way at a time: before, each
     * opened its own, and a burst of short statements made a backend login each.
     */
    @Test
    void statementsArrivingAtOnceShareTheConnectionsThatComeBack() throws Exception {
        try (ProxyServer proxy = splitProxy(); ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<RawClient> clients = loggedInAtOnce(proxy, threads);
            long before = backendLogins();
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> statements = new ArrayList<>();
            for (RawClient client : clients) {
                statements.add(threads.submit(() -> {
                    go.await();
                    return client.query("DO 1").header();
                }));
            }
            go.countDown();
            for (Future<Integer> each : statements) {
                assertThat(each.get(60, TimeUnit.SECONDS)).as("the statement's answer, OK").isZero();
            }
            long made = backendLogins() - before;
            for (RawClient client : clients) {
                client.close();
            }
            assertThat(made).as("backend logins for %d clients' statements at once", CLIENTS).isLessThan(CLIENTS / 2);
        }
    }

    /** {@link #CLIENTS} clients, logged in at once through {@code proxy}. */
    private static List<RawClient> loggedInAtOnce(ProxyServer proxy, ExecutorService threads) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<RawClient.RawPacket>> logins = new ArrayList<>();
        List<RawClient> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            RawClient client = new RawClient(proxy.port());
            clients.add(client);
            logins.add(threads.submit(() -> {
                go.await();
                return client.login(TestUsers.APP_USER, TestUsers.APP_PASSWORD, "sluice_test");
            }));
        }
        go.countDown();
        for (Future<RawClient.RawPacket> login : logins) {
            RawClient.RawPacket reply = login.get(60, TimeUnit.SECONDS);
            assertThat(reply.header()).as(reply.header() == 0xFF ? reply.errorMessage() : "OK").isZero();
        }
        return clients;
    }

    @Test
    void aSchemaThatDoesNotExistFailsTheLoginEveryTime() throws Exception {
        try (ProxyServer proxy = splitProxy()) {
            for (int i = 0; i < 3; i++) {
                try (RawClient client = new RawClient(proxy.port())) {
                    RawClient.RawPacket reply = client.login(TestUsers.APP_USER, TestUsers.APP_PASSWORD, "no_such_schema");
                    assertThat(reply.header()).isEqualTo(0xFF);
                    assertThat(reply.errorCode()).as(reply.errorMessage()).isEqualTo(1049);
                }
            }
            try (RawClient client = new RawClient(proxy.port())) {
                assertThat(client.login(TestUsers.APP_USER, TestUsers.APP_PASSWORD, "sluice_test").header()).isZero();
            }
        }
    }

    @Test
    void withNoBackendUpTheLoginFailsNamingTheBackends() throws Exception {
        try (ProxyServer proxy = splitProxy()) {
            try (RawClient client = new RawClient(proxy.port())) {
                assertThat(client.login(TestUsers.APP_USER, TestUsers.APP_PASSWORD, "sluice_test").header()).isZero();
            }
            for (var backend : proxy.runtime().backends()) {
                backend.connectFailed(System.nanoTime(), TimeUnit.SECONDS.toNanos(30), "test: marked unreachable");
            }
            try (RawClient client = new RawClient(proxy.port())) {
                RawClient.RawPacket reply = client.login(TestUsers.APP_USER, TestUsers.APP_PASSWORD, "sluice_test");
                assertThat(reply.header()).as("a fresh proof does not hide that no backend is up").isEqualTo(0xFF);
                assertThat(reply.errorMessage()).contains("test: marked unreachable");
            }
        }
    }

    /**
     * The login that started a shared proof may leave before the backend it tried answers: the
     * proof goes on to the next backend for the logins still waiting on it. Before, it ended with
     * the client that started it, and every login waiting was refused with "No backend".
     */
    @Test
    void aProofGoesOnToTheNextBackendWhenTheLoginThatStartedItLeaves() throws Exception {
        try (ServerSocket stalled = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            MariaDbServer server = cluster.primary();
            // Accepts (the kernel's backlog) and never greets: proofs go to a primary first.
            List<BackendConfig> backends = List.of(
                    new BackendConfig("stalled", new HostPort("127.0.0.1", stalled.getLocalPort()),
                            BackendConfig.Role.PRIMARY, 1, 200),
                    new BackendConfig(server.name(), new HostPort(server.host(), server.port()),
                            BackendConfig.Role.REPLICA, 1, 200));
            TimeoutsConfig d = SluiceConfig.defaults().timeouts();
            SluiceConfig config = ProxyFixture.config(backends)
                    .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN))
                    .withHealth(HealthConfig.disabled())
                    .withTimeouts(new TimeoutsConfig(Duration.ofSeconds(1), d.handshake(), d.clientIdle(),
                            d.backendQueue(), d.poolIdle(), d.shutdown(), Duration.ofMillis(100), d.query(),
                            d.primaryWait()));
            try (ProxyServer proxy = ProxyFixture.start(config)) {
                var stalledBackend = proxy.runtime().backends().stream()
                        .filter(b -> b.name().equals("stalled")).findFirst().orElseThrow();
                // The start-up probe put it on a 100 ms backoff; the first login must try it.
                Awaitility.await().atMost(10, TimeUnit.SECONDS)
                        .until(() -> stalledBackend.available(System.nanoTime()));
                RawClient first = new RawClient(proxy.port());
                first.sendLogin(TestUsers.APP_USER, TestUsers.APP_PASSWORD, "sluice_test");
                first.close();
                long start = System.nanoTime();
                try (RawClient second = new RawClient(proxy.port())) {
                    RawClient.RawPacket reply = second.login(TestUsers.APP_USER, TestUsers.APP_PASSWORD, "sluice_test");
                    assertThat(reply.header()).as(reply.header() == 0xFF ? reply.errorMessage() : "OK").isZero();
                }
                assertThat(Duration.ofNanos(System.nanoTime() - start))
                        .as("the second login waited on the first one's proof, tried on the stalled backend first")
                        .isGreaterThanOrEqualTo(Duration.ofMillis(900));
            }
        }
    }
}
