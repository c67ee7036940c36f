package dev.sluice.proxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.config.RoutingConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Backends named by host name (resolved off the event loops) serve both modes. */
@ExtendWith(MariaDbClusterExtension.class)
class BackendByNameIT {

    @Test
    void aBackendGivenAsLocalhostServesSessionAndSplitMode(MariaDbCluster cluster) throws Exception {
        BackendConfig primary = ProxyFixture.backend(cluster.primary());
        BackendConfig byName = new BackendConfig(primary.name(), new HostPort("localhost", primary.address().port()),
                primary.role(), 1, 20);
        for (RoutingConfig.Mode mode : RoutingConfig.Mode.values()) {
            try (ProxyServer proxy = ProxyFixture.start(ProxyFixture.config(List.of(byName))
                    .withRouting(new RoutingConfig(mode, RoutingConfig.Balancer.ROUND_ROBIN)));
                 Connection c = ProxyFixture.connect(proxy, "sluice_test", "");
                 ResultSet rs = c.createStatement().executeQuery("SELECT @@port")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).as("mode %s", mode).isEqualTo(cluster.primary().port());
            }
        }
    }
}
