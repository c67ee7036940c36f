package dev.sluice.proxy.balance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.proxy.backend.Backend;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/** Each balancer's picks, made deterministic where they draw at random (a seeded generator). */
class BalancersTest {

    private final Backend a = backend("a", 5);
    private final Backend b = backend("b", 1);
    private final Backend c = backend("c", 1);

    @Test
    void roundRobinTakesEachInTurnWhateverTheWeights() {
        Balancer balancer = new RoundRobinBalancer();
        assertThat(picks(balancer, List.of(a, b, c), 7)).containsExactly("a", "b", "c", "a", "b", "c", "a");
    }

    @Test
    void smoothWeightsSpreadTheHeavyOneOut() {
        Balancer balancer = new SmoothWeightedBalancer();
        assertThat(picks(balancer, List.of(a, b, c), 7)).containsExactly("a", "a", "b", "a", "c", "a", "a");
        assertThat(picks(balancer, List.of(a, b, c), 7)).as("the next cycle is the same")
                .containsExactly("a", "a", "b", "a", "c", "a", "a");
    }

    @Test
    void smoothWeightsFollowACandidateLeaving() {
        Balancer balancer = new SmoothWeightedBalancer();
        picks(balancer, List.of(a, b, c), 3);
        List<String> after = picks(balancer, List.of(b, c), 40);
        assertThat(after).as("a is gone").doesNotContain("a");
        // b and c weigh the same: what one was owed before evens out within a few picks.
        assertThat(after.stream().filter("b"::equals).count()).isBetween(18L, 22L);
    }

    @Test
    void leastConnectionsTakesTheFewestSessionsPerWeight() {
        Balancer balancer = new LeastConnectionsBalancer(seeded(1));
        a.activeSessions().set(9);
        b.activeSessions().set(2);
        c.activeSessions().set(1);
        assertThat(balancer.pick(List.of(a, b, c))).as("9/5 > 1/1 < 2/1").isSameAs(c);
        c.activeSessions().set(4);
        assertThat(balancer.pick(List.of(a, b, c))).as("9/5 = 1.8 < 2/1").isSameAs(a);
    }

    @Test
    void leastConnectionsBreaksTiesAtRandomSoABurstSpreads() {
        Balancer balancer = new LeastConnectionsBalancer(seeded(2));
        Backend d = backend("d", 1);
        Map<String, Integer> counts = count(balancer, List.of(b, c, d), 3000);
        assertThat(counts.keySet()).containsExactlyInAnyOrder("b", "c", "d");
        counts.values().forEach(n -> assertThat(n).isBetween(800, 1200));
    }

    @Test
    void leastLatencyPrefersTheFasterOfTwoAndTriesTheUnmeasured() {
        Balancer balancer = new LeastLatencyBalancer(seeded(3));
        b.stats().recordResponse(5_000_000, false);
        c.stats().recordResponse(1_000_000, false);
        assertThat(count(balancer, List.of(b, c), 100)).containsOnlyKeys("c");
        Backend fresh = backend("fresh", 1);
        assertThat(count(balancer, List.of(c, fresh), 100)).as("not measured yet: measured next").containsOnlyKeys("fresh");
        assertThat(balancer.pick(List.of(b))).isSameAs(b);
    }

    @Test
    void leastLatencyWeighsInTheSessionsAlreadyThere() {
        Balancer balancer = new LeastLatencyBalancer(seeded(4));
        b.stats().recordResponse(2_000_000, false);
        c.stats().recordResponse(1_000_000, false);
        c.activeSessions().set(3);
        assertThat(count(balancer, List.of(b, c), 100)).as("1 ms x 4 sessions > 2 ms x 1").containsOnlyKeys("b");
    }

    @Test
    void weightedRandomFollowsTheWeights() {
        Balancer balancer = new WeightedRandomBalancer(seeded(5));
        Map<String, Integer> counts = count(balancer, List.of(a, b, c), 7000);
        assertThat(counts.get("a")).isBetween(4700, 5300);
        assertThat(counts.get("b")).isBetween(800, 1200);
        assertThat(counts.get("c")).isBetween(800, 1200);
    }

    private static java.util.function.Supplier<RandomGenerator> seeded(long seed) {
        Random random = new Random(seed);
        return () -> random;
    }

    private static List<String> picks(Balancer balancer, List<Backend> candidates, int count) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            names.add(balancer.pick(candidates).name());
        }
        return names;
    }

    private static Map<String, Integer> count(Balancer balancer, List<Backend> candidates, int picks) {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < picks; i++) {
            counts.merge(balancer.pick(candidates).name(), 1, Integer::sum);
        }
        return counts;
    }

    private static Backend backend(String name, int weight) {
        return new Backend(new BackendConfig(name, new HostPort("127.0.0.1", 3306), BackendConfig.Role.REPLICA, weight, 10));
    }
}
