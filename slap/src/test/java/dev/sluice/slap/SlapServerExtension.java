package dev.sluice.slap;

import dev.sluice.testkit.ClusterSpec;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbServer;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One MariaDB for all slap integration tests: a primary without replicas (slap's load needs no
 * replication, and two cores are better spent on the load) with max_connections raised for the
 * 2,000-client test. Started on first use, closed at the end of the run.
 */
public final class SlapServerExtension implements ParameterResolver {

    static final int MAX_CONNECTIONS = 3000;

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SlapServerExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == MariaDbServer.class;
    }

    @Override
    public MariaDbServer resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(MariaDbCluster.class,
                type -> MariaDbCluster.start(ClusterSpec.builder().replicas(0).maxConnections(MAX_CONNECTIONS).build()),
                MariaDbCluster.class).primary();
    }
}
