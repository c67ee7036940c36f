package dev.sluice.proxy.backend;

import dev.sluice.config.BackendConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The proxy's backends and their pools, as the config lists them now. A reload keeps a backend
 * with the same name and address (its counters, pool and sessions) and gives it the new settings;
 * the others are new. Backends no longer listed are retired: no new work, idle connections closed,
 * busy ones closed when their sessions give them back, and forgotten once the last has closed.
 */
public final class Backends {

    /** Copy-on-write: a reload swaps in a new list. */
    private volatile List<Backend> current;
    /** Pools of the current backends and of retired ones that still have connections open. */
    private final Map<Backend, BackendPool> pools = new ConcurrentHashMap<>();
    private final Set<Backend> retired = ConcurrentHashMap.newKeySet();
    private final Connector connector;

    public Backends(List<BackendConfig> configs, Connector connector, int queueSize, Duration queueTimeout) {
        this.connector = connector;
        List<Backend> backends = new ArrayList<>();
        for (BackendConfig config : configs) {
            Backend backend = new Backend(config);
            pools.put(backend, new BackendPool(backend, connector, queueSize, queueTimeout));
            backends.add(backend);
        }
        this.current = List.copyOf(backends);
    }

    /** The backends the config lists now, in its order. */
    /** True when some backend takes new work now (see {@link Backend#available}). */
    public boolean anyAvailable(long nowNanos) {
        for (Backend backend : current) {
            if (backend.available(nowNanos)) {
                return true;
            }
        }
        return false;
    }

    public List<Backend> list() {
        return current;
    }

    public BackendPool pool(Backend backend) {
        return pools.get(backend);
    }

    /** Every pool, retired backends' included. */
    public Iterable<BackendPool> pools() {
        return pools.values();
    }

    /** What {@link #apply} did, by backend name. */
    public record Changes(List<String> added, List<String> removed, List<String> changed) {
        public boolean none() {
            return added.isEmpty() && removed.isEmpty() && changed.isEmpty();
        }
    }

    /**
     * A reload's backends (see the class comment) and queue limits. Sessions are never cut. One
     * thread at a time (the reload).
     */
    public synchronized Changes apply(List<BackendConfig> wantedBackends, int queueSize, Duration queueTimeout) {
        Map<String, Backend> previous = new LinkedHashMap<>();
        current.forEach(b -> previous.put(b.name(), b));
        List<Backend> next = new ArrayList<>();
        List<String> added = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        List<Backend> leaving = new ArrayList<>();
        for (BackendConfig wanted : wantedBackends) {
            Backend kept = previous.remove(wanted.name());
            if (kept != null && kept.config().address().equals(wanted.address())) {
                if (!kept.config().equals(wanted) || kept.weight() != wanted.weight()) {
                    kept.reconfigure(wanted);
                    changed.add(wanted.name());
                }
                next.add(kept);
                continue;
            }
            if (kept != null) {
                leaving.add(kept);
                changed.add(wanted.name());
            } else {
                added.add(wanted.name());
            }
            Backend fresh = new Backend(wanted);
            pools.put(fresh, new BackendPool(fresh, connector, queueSize, queueTimeout));
            next.add(fresh);
        }
        leaving.addAll(previous.values());
        for (Backend kept : next) {
            pools.get(kept).queueLimits(queueSize, queueTimeout);
        }
        current = List.copyOf(next);
        for (Backend gone : leaving) {
            gone.state(Backend.State.OFFLINE);
            retired.add(gone);
            pools.get(gone).close();
        }
        dropDrained();
        return new Changes(added, List.copyOf(previous.keySet()), changed);
    }

    /** Forgets retired backends whose last connection has closed; called periodically. */
    public void dropDrained() {
        for (Backend gone : retired) {
            if (gone.openConnections().get() <= 0 && gone.activeSessions().get() <= 0) {
                retired.remove(gone);
                pools.remove(gone);
            }
        }
    }

    /** Stops every pool (the proxy closes). */
    public void close() {
        pools.values().forEach(BackendPool::close);
    }
}
