package dev.sluice.proxy.differential;

import dev.sluice.config.RoutingConfig;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import java.util.List;

/** The two proxies the differential tests compare with a direct connection. */
final class Proxies {

    private Proxies() {
    }

    /** Session mode in front of the primary only: a replica would refuse a session's writes. */
    static ProxyServer sessionMode(MariaDbCluster cluster) {
        return ProxyFixture.start(ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary()))));
    }

    /** Split mode over the whole cluster; gtid read_your_writes, so replica lag does not show. */
    static ProxyServer splitMode(MariaDbCluster cluster) {
        return ProxyFixture.start(ProxyFixture.config(ProxyFixture.backends(cluster))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN,
                        RoutingConfig.ReadYourWrites.GTID, RoutingConfig.DEFAULT_PRIMARY_WINDOW,
                        RoutingConfig.DEFAULT_GTID_WAIT_TIMEOUT, List.of())));
    }
}
