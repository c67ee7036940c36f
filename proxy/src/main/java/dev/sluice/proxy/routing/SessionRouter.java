package dev.sluice.proxy.routing;

import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.balance.Balancer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Session mode: every backend with a weight above 0 takes whole sessions, as the balancer says. */
public final class SessionRouter implements Router {

    private volatile List<Backend> backends;
    private final Balancer balancer;

    public SessionRouter(List<Backend> backends, Balancer balancer) {
        this.backends = List.copyOf(backends);
        this.balancer = balancer;
    }

    @Override
    public void backends(List<Backend> current) {
        this.backends = List.copyOf(current);
    }

    @Override
    public Optional<Backend> pickForSession(Set<Backend> exclude) {
        long now = System.nanoTime();
        List<Backend> backends = this.backends;
        List<Backend> candidates = new ArrayList<>(backends.size());
        for (Backend backend : backends) {
            if (backend.weight() > 0 && backend.available(now) && !exclude.contains(backend)) {
                candidates.add(backend);
            }
        }
        return candidates.isEmpty() ? Optional.empty() : Optional.of(balancer.pick(candidates));
    }
}
