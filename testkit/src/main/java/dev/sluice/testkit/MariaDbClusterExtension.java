package dev.sluice.testkit;

import java.lang.System.Logger.Level;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests a {@link MariaDbCluster} parameter: one default cluster for the whole test run,
 * started on first use and closed when the run ends (it lives in the root context's store).
 *
 * <pre>{@code
 * @ExtendWith(MariaDbClusterExtension.class)
 * class SomethingIT {
 *     @Test
 *     void reads(MariaDbCluster cluster) { ... }
 * }
 * }</pre>
 *
 * The cluster is shared: tests that stop, kill or reconfigure servers should start their own with
 * {@link MariaDbCluster#start(ClusterSpec)}. A server a test left stopped is started again before
 * the shared cluster is handed to the next test.
 */
public final class MariaDbClusterExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(MariaDbClusterExtension.class);
    private static final System.Logger LOG = System.getLogger(MariaDbClusterExtension.class.getName());

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == MariaDbCluster.class;
    }

    @Override
    public MariaDbCluster resolveParameter(ParameterContext parameter, ExtensionContext context) {
        MariaDbCluster cluster = context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(
                MariaDbCluster.class, type -> MariaDbCluster.start(ClusterSpec.defaults()), MariaDbCluster.class);
        for (MariaDbServer server : cluster.servers()) {
            if (!server.isRunning()) {
                LOG.log(Level.WARNING, "{0} of the shared cluster was left stopped by an earlier test; starting it",
                        server.name());
                server.start();
            }
        }
        return cluster;
    }
}
