package dev.sluice.proxy.split;

import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.proxy.gtid.AcknowledgedWrites;
import dev.sluice.proxy.routing.PrimaryStatus;
import dev.sluice.proxy.routing.SplitRouter;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Where split-mode statements can go: the router that picks a primary or a replica, each
 * backend's pool, the backends themselves (to say why none is up), what the health checks found
 * of the primaries ({@code role: auto}), and the writes acknowledged to clients (reads that must
 * see them, writes lost with their connection).
 */
public record SplitBackends(SplitRouter router, Function<Backend, BackendPool> pools, Supplier<List<Backend>> backends,
                            PrimaryStatus primaries, AcknowledgedWrites acknowledgedWrites) {
}
