package dev.sluice.proxy.routing;

import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.balance.Balancer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Split mode: writes and transactions go to a primary, reads outside transactions to a replica
 * chosen by the balancer (the primary when no replica is up). New sessions start on nothing: the
 * first statement decides. Roles are read at each pick: a {@code role: auto} backend changes role
 * when the health checks find its read_only switched.
 */
public final class SplitRouter implements Router {

    private volatile List<Backend> backends;
    /**
     * One balancer per role: with one for both, a round robin's turn also moved on each primary pick,
     * so a session alternating writes and reads read from the same replica every time.
     */
    private final Balancer forPrimaries;
    private final Balancer forReplicas;

    public SplitRouter(List<Backend> backends, Supplier<Balancer> balancers) {
        this.backends = List.copyOf(backends);
        this.forPrimaries = balancers.get();
        this.forReplicas = balancers.get();
    }

    @Override
    public void backends(List<Backend> current) {
        this.backends = List.copyOf(current);
    }

    /**
     * Sessions in split mode log in against a primary (it has every account the proxy needs); while
     * no primary is up, against a replica (accounts replicate), so reads go on during a failover.
     */
    @Override
    public Optional<Backend> pickForSession(Set<Backend> exclude) {
        List<Backend> current = backends;
        return pick(current, true, forPrimaries, exclude).or(() -> pick(current, false, forReplicas, exclude));
    }

    public Optional<Backend> primary(Set<Backend> exclude) {
        return pick(backends, true, forPrimaries, exclude);
    }

    /** A replica that is up, or empty (the caller then uses the primary). */
    public Optional<Backend> replica(Set<Backend> exclude) {
        return pick(backends, false, forReplicas, exclude);
    }

    private static Optional<Backend> pick(List<Backend> from, boolean primary, Balancer balancer, Set<Backend> exclude) {
        long now = System.nanoTime();
        List<Backend> candidates = new ArrayList<>(from.size());
        for (Backend backend : from) {
            if (backend.isPrimary() == primary && backend.weight() > 0 && backend.available(now) && !backend.lagging()
                    && !exclude.contains(backend)) {
                candidates.add(backend);
            }
        }
        return candidates.isEmpty() ? Optional.empty() : Optional.of(balancer.pick(candidates));
    }
}
