package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.AdminConfig;
import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.UserConfig;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/** {@code sluice stats} against a running proxy's HTTP admin port, and against nothing. */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(60)
class StatsCommandIT {

    private record Output(int exit, String out, String err) {
    }

    private static Output stats(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new StatsCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err)).execute(args);
        return new Output(exit, out.toString(), err.toString());
    }

    @Test
    void printsEachBackendWithItsCounts(MariaDbCluster cluster) throws Exception {
        MariaDbServer primary = cluster.primary();
        SluiceConfig config = SluiceConfig.defaults().withListen(new HostPort("127.0.0.1", 0))
                .withUsers(List.of(new UserConfig(TestUsers.APP_USER, TestUsers.APP_PASSWORD)))
                .withBackends(List.of(new BackendConfig("stats-primary", new HostPort(primary.host(), primary.port()),
                        BackendConfig.Role.PRIMARY, 1, 20)))
                .withAdmin(AdminConfig.onFreePorts("admin", "admin-password"));
        try (ProxyServer proxy = ProxyServer.start(config)) {
            String url = "jdbc:mysql://127.0.0.1:" + proxy.port() + "/?sslMode=DISABLED&allowPublicKeyRetrieval=true";
            try (Connection c = DriverManager.getConnection(url, TestUsers.APP_USER, TestUsers.APP_PASSWORD);
                 Statement s = c.createStatement()) {
                for (int i = 0; i < 7; i++) {
                    s.executeQuery("SELECT " + i).close();
                }
            }
            InetSocketAddress http = proxy.admin().httpAddress();

            Output run = stats("--admin", http.getHostString() + ":" + http.getPort());

            assertThat(run.exit()).as(run.err()).isZero();
            String[] lines = run.out().strip().split("\n");
            assertThat(lines[0]).startsWith("backend").contains("queries", "p95 ms");
            String row = List.of(lines).stream().filter(l -> l.startsWith("stats-primary")).findFirst().orElseThrow();
            String[] cells = row.trim().split("\\s+");
            assertThat(cells[1]).isEqualTo("primary");
            assertThat(Long.parseLong(cells[4])).isGreaterThanOrEqualTo(7);
        }
    }

    @Test
    void saysWhereItFoundNoProxy() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        Output run = stats("--admin", "127.0.0.1:" + closed);

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("sluice stats: cannot read http://127.0.0.1:" + closed + "/api/backends")
                .contains("is the proxy running");
    }
}
