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
}
