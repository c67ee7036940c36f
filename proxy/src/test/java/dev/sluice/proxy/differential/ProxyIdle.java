package dev.sluice.proxy.differential;

import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendPool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Whether a proxy is back at rest once its clients have gone: no client connection, no session
 * on a backend, every open backend connection idle in its pool, nobody waiting for one.
 */
final class ProxyIdle {

    private ProxyIdle() {
    }

    /** Waits up to {@code millis} for rest; what is still busy after that, if anything. */
    static Optional<String> await(ProxyServer proxy, long millis) throws InterruptedException {
        AtomicReference<Optional<String>> busy = new AtomicReference<>(Optional.empty());
        try {
            Awaitility.await().atMost(Duration.ofMillis(millis)).pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        busy.set(busy(proxy));
                        return busy.get().isEmpty();
                    });
        } catch (ConditionTimeoutException stillBusy) {
            // What was still busy at the last look is the answer.
        }
        return busy.get();
    }

    private static Optional<String> busy(ProxyServer proxy) {
        List<String> busy = new ArrayList<>();
        int clients = proxy.runtime().clientConnections().get();
        if (clients != 0) {
            busy.add(clients + " client connections");
        }
        for (Backend backend : proxy.runtime().backends()) {
            BackendPool pool = proxy.runtime().pool(backend);
            int open = backend.openConnections().get();
            int idle = pool.idleCount();
            int sessions = backend.activeSessions().get();
            if (open != idle || sessions != 0 || pool.waiting() != 0) {
                busy.add(backend.name() + ": " + open + " open, " + idle + " idle, " + sessions + " sessions, "
                        + pool.waiting() + " waiting");
            }
        }
        return busy.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", busy));
    }
}
