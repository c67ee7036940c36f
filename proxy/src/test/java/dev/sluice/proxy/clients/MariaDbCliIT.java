package dev.sluice.proxy.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code mariadb} command-line client (Debian's mariadb-client) runs one SQL script directly
 * and through the proxy; its output must be the same byte for byte. Skipped, with a message, where
 * the client is not installed.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MariaDbCliIT {

    static final String SCHEMA = "cli_it";
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(60);

    private static MariaDbCluster cluster;
    private static ProxyServer proxy;
    @TempDir
    static Path work;
    private static Path script;

    @BeforeAll
    static void start(MariaDbCluster shared) throws SQLException, IOException {
        cluster = shared;
        ClientProxies.admin(cluster.primary(),
                "CREATE DATABASE IF NOT EXISTS " + SCHEMA,
                "CREATE OR REPLACE PROCEDURE " + SCHEMA + ".two_sets(IN n INT)"
                        + " BEGIN SELECT n AS first_set; SELECT n * 2 AS second_set, 'x' AS tag; END");
        script = work.resolve("script.sql");
        try (InputStream in = MariaDbCliIT.class.getResourceAsStream("/clients/cli-script.sql")) {
            Files.copy(in, script);
        }
        proxy = ProxyFixture.start(ClientProxies.primaryOnly(cluster));
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    /** The client's arguments for a TCP login as app; {@code extra} adds TLS options and the like. */
    static List<String> login(int port, String user, String password, String database, String... extra) {
        List<String> args = new ArrayList<>(List.of("--no-defaults", "--protocol=TCP", "--host=" + ClientProxies.HOST,
                "--port=" + port, "--user=" + user, "--password=" + password, "--connect-timeout=20",
                "--default-character-set=utf8mb4"));
        if (database != null) {
            args.add("--database=" + database);
        }
        args.addAll(List.of(extra));
        return args;
    }

    private static ExternalTool.Run script(ExternalTool mariadb, int port, String... tls) throws Exception {
        List<String> args = login(port, TestUsers.APP_USER, TestUsers.APP_PASSWORD, SCHEMA, tls);
        args.addAll(List.of("--batch", "--raw", "--force"));
        return mariadb.run(args, script, RUN_TIMEOUT, work);
    }

    @Test
    void scriptOutputIsIdenticalThroughTheProxy() throws Exception {
        ExternalTool mariadb = ExternalTool.require("mariadb");
        ExternalTool.Run direct = script(mariadb, cluster.primary().port(), "--skip-ssl");
        assertThat(direct.stdout()).as(direct.toString())
                .contains("Grüße, 世界 😀", "after the error", "looped\n3\n", "second_set\ttag\n4\tx", "switched\nsluice_test",
                        "2999\t" /* the long result set */, "long_value\tdigest\n1000000\t");
        assertThat(direct.stderr()).as(direct.toString()).contains("ERROR 1064 (42000) at line");
        ExternalTool.Run proxied = script(mariadb, proxy.port(), "--skip-ssl");
        assertThat(proxied.stdout()).as(proxied.toString()).isEqualTo(direct.stdout());
        assertThat(proxied.stderr()).as(proxied.toString()).isEqualTo(direct.stderr());
        assertThat(proxied.exitCode()).as(proxied.toString()).isEqualTo(direct.exitCode());
    }

    @Test
    void tlsToTheProxy() throws Exception {
        ExternalTool mariadb = ExternalTool.require("mariadb");
        try (ProxyServer tls = ProxyFixture.start(ClientProxies.clientTls(ClientProxies.primaryOnly(cluster), true))) {
            // The proxy's certificate is self-signed: encrypt, but do not verify it.
            String[] tlsOptions = {"--ssl", "--skip-ssl-verify-server-cert"};
            ExternalTool.Run status = mariadb.run(withExecute(login(tls.port(), TestUsers.APP_USER, TestUsers.APP_PASSWORD,
                    null, tlsOptions), "status"), null, RUN_TIMEOUT, work);
            assertThat(status.exitCode()).as(status.toString()).isZero();
            assertThat(status.stdout()).as(status.toString()).containsPattern("SSL:\\s+Cipher in use is \\S+");
            ExternalTool.Run direct = script(mariadb, cluster.primary().port(), "--skip-ssl");
            ExternalTool.Run proxied = script(mariadb, tls.port(), tlsOptions);
            assertThat(proxied.stdout()).as(proxied.toString()).isEqualTo(direct.stdout());
            assertThat(proxied.stderr()).as(proxied.toString()).isEqualTo(direct.stderr());
            ExternalTool.Run plain = mariadb.run(withExecute(login(tls.port(), TestUsers.APP_USER, TestUsers.APP_PASSWORD,
                    null, "--skip-ssl"), "SELECT 1"), null, RUN_TIMEOUT, work);
            assertThat(plain.exitCode()).as(plain.toString()).isNotZero();
            assertThat(plain.stderr()).as(plain.toString()).contains("ERROR 3159");
        }
    }

    /**
     * libmariadb reports a server ERR carrying one of its own client codes (2000-2999) as "malformed packet" and
     * drops the text, so the proxy's errors for a dead or lost backend must use server-side codes.
     */
    @Test
    void backendFailuresReachTheClientInWords() throws Exception {
        ExternalTool mariadb = ExternalTool.require("mariadb");
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        BackendConfig dead = new BackendConfig("dead", new HostPort(ClientProxies.HOST, closedPort),
                BackendConfig.Role.PRIMARY, 1, 10);
        try (ProxyServer deadProxy = ProxyFixture.start(ProxyFixture.config(List.of(dead)))) {
            ExternalTool.Run run = mariadb.run(withExecute(login(deadProxy.port(), TestUsers.APP_USER,
                    TestUsers.APP_PASSWORD, null, "--skip-ssl"), "SELECT 1"), null, RUN_TIMEOUT, work);
            assertThat(run.exitCode()).as(run.toString()).isNotZero();
            assertThat(run.stderr()).as(run.toString()).contains("ERROR 9001 (08S01)", "dead").doesNotContain("2027");
        }

        String marker = "lost_backend_" + System.nanoTime();
        java.util.concurrent.CompletableFuture<ExternalTool.Run> sleeping = java.util.concurrent.CompletableFuture
                .supplyAsync(() -> {
                    try {
                        return mariadb.run(withExecute(login(proxy.port(), TestUsers.APP_USER, TestUsers.APP_PASSWORD,
                                null, "--skip-ssl"), "SELECT SLEEP(60) AS " + marker), null, RUN_TIMEOUT, work);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
        long killed = Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> ClientProxies.killQueriesContaining(cluster.primary(), marker), n -> n > 0);
        assertThat(killed).as("backend connections running the sleep").isPositive();
        ExternalTool.Run run = sleeping.get(RUN_TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
        assertThat(run.exitCode()).as(run.toString()).isNotZero();
        assertThat(run.stderr()).as(run.toString()).contains("ERROR 1927 (08S01)", "Lost connection to backend")
                .doesNotContain("2027");
    }

    static List<String> withExecute(List<String> args, String sql) {
        List<String> all = new ArrayList<>(args);
        all.add("--execute=" + sql);
        return all;
    }
}
