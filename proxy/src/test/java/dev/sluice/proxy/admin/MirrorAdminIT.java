package dev.sluice.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.config.AdminConfig;
import dev.sluice.config.HostPort;
import dev.sluice.config.MirrorConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.MariaDbServer;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Mirroring as an operator sees it: SHOW MIRROR and the mirror table through the mariadb client
 * on the admin SQL port, and /api/mirror on the HTTP port, for reads copied to a replica of the
 * shared cluster (the same data, so every copy compares equal).
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MirrorAdminIT {

    private static final String PASSWORD = "mirror-admin-it";
    private static final int READS = 12;

    @Test
    void theAdminPortsShowWhatTheMirrorCompared(MariaDbCluster cluster) throws Exception {
        MariaDbServer shadow = cluster.replicas().get(0);
        var config = ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary())))
                .withMirror(MirrorConfig.to(new HostPort(shadow.host(), shadow.port())))
                .withAdmin(AdminConfig.onFreePorts("admin", PASSWORD));
        try (ProxyServer proxy = ProxyFixture.start(config)) {
            try (Connection c = ProxyFixture.connect(proxy, "sluice_test", "useServerPrepStmts=false");
                 Statement s = c.createStatement()) {
                for (int i = 0; i < READS; i++) {
                    try (ResultSet rs = s.executeQuery("SELECT " + i + " + 1 AS mirror_admin_it")) {
                        assertThat(rs.next()).isTrue();
                    }
                }
            }
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> proxy.runtime().mirror().stats().comparedCount() >= READS);

            var sql = proxy.admin().sqlAddress();
            AdminClients.Run summary = AdminClients.cli(sql, "admin", PASSWORD, "SHOW MIRROR", "--batch");
            assertThat(summary.exitCode()).as(summary.toString()).isZero();
            assertThat(summary.stdout()).startsWith("state\tshadow\tstatements\t")
                    .contains("\nON\t" + shadow.host() + ":" + shadow.port() + "\treads\t");

            AdminClients.Run digests = AdminClients.cli(sql, "admin", PASSWORD,
                    "SELECT digest_text, compared, mismatched FROM mirror WHERE digest_text LIKE '%mirror_admin_it%'",
                    "--batch", "--skip-column-names");
            assertThat(digests.exitCode()).as(digests.toString()).isZero();
            assertThat(digests.stdout()).isEqualTo("SELECT ? + ? AS mirror_admin_it\t" + READS + "\t0\n");

            HttpResponse<String> api = AdminClients.get(proxy.admin().httpAddress(), "/api/mirror");
            assertThat(api.statusCode()).isEqualTo(200);
            assertThat(api.body()).contains("\"state\":\"ON\"").contains("\"digests\":[")
                    .contains("\"digest_text\":\"SELECT ? + ? AS mirror_admin_it\"");
        }
    }
}
