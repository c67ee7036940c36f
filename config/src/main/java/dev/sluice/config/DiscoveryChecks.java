package dev.sluice.config;

import java.util.List;
import java.util.Optional;
import org.snakeyaml.engine.v2.nodes.NodeTuple;

/**
 * The rules of {@code role: auto} that span sections: its role comes from the health checks'
 * reading of {@code @@read_only}, so checks must run; a fixed primary beside it would be a second
 * writer; {@code routing.preferred_primary} names one of the auto backends.
 */
final class DiscoveryChecks {

    private final Problems problems;

    DiscoveryChecks(Problems problems) {
        this.problems = problems;
    }

    void check(YamlMapping top, YamlMapping routing, Optional<YamlScalar> discover, List<BackendConfig> backends,
               List<UserConfig> users, HealthConfig health) {
        List<String> auto = backends.stream().filter(BackendConfig::isAuto).map(BackendConfig::name).toList();
        Optional<YamlScalar> preferred = routing.scalar("preferred_primary", "a backend name");
        if (preferred.isPresent() && !auto.contains(preferred.get().text())) {
            preferred.get().fail(Messages.quote(preferred.get().text()) + " is not a backend with role auto ("
                    + (auto.isEmpty() ? "expected: role auto on the backends it chooses among, or routing.discover:"
                    + " read_only" : Messages.oneOf(auto)) + ")");
        }
        if (auto.isEmpty()) {
            return;
        }
        String problem = SluiceConfig.discoveryProblem(backends, users, health);
        if (problem == null) {
            return;
        }
        if (discover.isPresent()) {
            discover.get().fail(problem);
            return;
        }
        NodeTuple entry = top.entry("backends");
        if (entry != null) {
            problems.at(entry.getKeyNode(), "backends", problem);
        } else {
            problems.unplaced("backends", problem);
        }
    }
}
