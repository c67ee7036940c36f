package dev.sluice.proxy.split;

import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.proxy.routing.SplitRouter;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Where split-mode statements can go: the router that picks a primary or a replica, each
 * backend's pool, and the backends themselves (to say why none is up).
 */
public record SplitBackends(SplitRouter router, Function<Backend, BackendPool> pools, Supplier<List<Backend>> backends) {

    /** Why no primary can take a statement, naming each primary. */
    String primaryState() {
        StringBuilder text = new StringBuilder("no primary is up (");
        backends.get().stream().filter(Backend::isPrimary).forEach(b -> text.append(text.length() > 20 ? "; " : "")
                .append(b.name()).append(' ').append(b.config().address()).append(": ")
                .append(b.state() != Backend.State.ONLINE ? b.state().name().toLowerCase(Locale.ROOT)
                        : b.lastConnectError() != null ? b.lastConnectError() : "unavailable"));
        return text.append(')').toString();
    }
}
