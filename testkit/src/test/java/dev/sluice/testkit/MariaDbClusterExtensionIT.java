package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/** The extension hands every test the same running cluster, even after a test stopped a server. */
@ExtendWith(MariaDbClusterExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MariaDbClusterExtensionIT {

    private static final AtomicReference<MariaDbCluster> FIRST = new AtomicReference<>();

    @Test
    @Order(1)
    void resolvesARunningCluster(MariaDbCluster cluster) {
        FIRST.set(cluster);
        assertThat(cluster.servers()).hasSize(3).allMatch(MariaDbServer::isRunning);
        cluster.replicas().get(1).stop(); // a careless test: the next one must still get a whole cluster
    }

    @Test
    @Order(2)
    void resolvesTheSameClusterWithEveryServerRunningAgain(MariaDbCluster cluster) {
        assertThat(cluster).isSameAs(FIRST.get());
        assertThat(cluster.servers()).allMatch(MariaDbServer::isRunning);
    }
}
