package dev.sluice.proxy.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.config.RoutingConfig;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.balance.Balancer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SplitRouterTest {

    private static Backend backend(String name, BackendConfig.Role role) {
        return new Backend(new BackendConfig(name, new HostPort("127.0.0.1", 3306), role, 1, 10));
    }

    @Test
    void aSessionAlternatingWritesAndReadsReadsFromEveryReplica() {
        List<Backend> backends = List.of(backend("primary", BackendConfig.Role.PRIMARY),
                backend("replica1", BackendConfig.Role.REPLICA), backend("replica2", BackendConfig.Role.REPLICA));
        for (RoutingConfig.Balancer kind : RoutingConfig.Balancer.values()) {
            SplitRouter router = new SplitRouter(backends, () -> Balancer.of(kind));
            List<String> reads = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                assertThat(router.primary(Set.of())).get().extracting(Backend::name).isEqualTo("primary");
                reads.add(router.replica(Set.of()).orElseThrow().name());
            }
            Map<String, Long> counts = reads.stream().collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
            assertThat(counts).as("%s: reads per replica", kind).containsOnlyKeys("replica1", "replica2")
                    .allSatisfy((name, count) -> assertThat(count).isBetween(300L, 700L));
        }
    }

    @Test
    void anAutoBackendTakesWritesFromTheMomentItIsFoundThePrimary() {
        Backend a = backend("a", BackendConfig.Role.AUTO);
        Backend b = backend("b", BackendConfig.Role.AUTO);
        SplitRouter router = new SplitRouter(List.of(a, b), () -> Balancer.of(RoutingConfig.Balancer.ROUND_ROBIN));
        assertThat(router.primary(Set.of())).as("no role known yet").isEmpty();
        assertThat(router.pickForSession(Set.of())).as("a session may still log in on a reader").isPresent();

        a.discoveredPrimary(true);
        assertThat(router.primary(Set.of())).contains(a);
        assertThat(router.replica(Set.of())).contains(b);
        assertThat(a.roleName()).isEqualTo("primary (auto)");

        a.discoveredPrimary(false);
        b.discoveredPrimary(true);
        assertThat(router.primary(Set.of())).contains(b);
        assertThat(router.replica(Set.of())).contains(a);
        assertThat(a.roleName()).isEqualTo("replica (auto)");
    }
}
