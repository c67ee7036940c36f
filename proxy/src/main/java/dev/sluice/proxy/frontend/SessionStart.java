package dev.sluice.proxy.frontend;

import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendConnection;
import dev.sluice.proxy.backend.BackendLoginException;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.proxy.backend.LoginRequest;
import io.netty.channel.Channel;
import java.util.HashSet;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Finds a backend connection for a new session: the router picks a backend, its pool supplies
 * the connection. A backend that cannot be reached is out of rotation from then on (with backoff),
 * and the session tries the next one; an ERR from a reachable backend (unknown database, wrong
 * password there, its cap reached) ends the attempt with that error.
 */
final class SessionStart {

    private final LoginServices services;
    private final Channel client;
    private final boolean othersWait;
    private final Set<Backend> tried = new HashSet<>();

    SessionStart(LoginServices services, Channel client) {
        this(services, client, false);
    }

    private SessionStart(LoginServices services, Channel client, boolean othersWait) {
        this.services = services;
        this.client = client;
        this.othersWait = othersWait;
    }

    /**
     * For a proof other logins wait on ({@link SchemaProofs}): it goes on to the next backend even
     * when {@code client}, whose login started it, has gone; each backend is still tried once.
     */
    static SessionStart sharedProof(LoginServices services, Channel client) {
        return new SessionStart(services, client, true);
    }

    void acquire(LoginRequest request, BiConsumer<BackendConnection, BackendPool> onReady,
                 Consumer<BackendLoginException> onFailure) {
        Backend backend = services.router().pickForSession(tried).orElse(null);
        if (backend == null) {
            onFailure.accept(new BackendLoginException(BackendLoginException.BACKEND_UNAVAILABLE, "08S01",
                    "No backend available: " + describe(tried.isEmpty() ? services.backends().list() : tried), false));
            return;
        }
        tried.add(backend);
        BackendPool pool = services.backends().pool(backend);
        pool.acquire(request, client.eventLoop()).addListener(done -> {
            if (done.isSuccess()) {
                onReady.accept((BackendConnection) done.getNow(), pool);
                return;
            }
            if (done.cause() instanceof BackendLoginException failure && !failure.refusedByServer()
                    && (othersWait || client.isActive())) {
                acquire(request, onReady, onFailure);
                return;
            }
            onFailure.accept(done.cause() instanceof BackendLoginException failure ? failure
                    : new BackendLoginException(BackendLoginException.BACKEND_UNAVAILABLE, "08S01",
                            "backend " + backend.name() + ": " + done.cause(), false));
        });
    }

    private static String describe(Iterable<Backend> backends) {
        StringBuilder text = new StringBuilder();
        for (Backend backend : backends) {
            if (!text.isEmpty()) {
                text.append("; ");
            }
            text.append(backend.name()).append(" (").append(backend.config().address()).append("): ")
                    .append(backend.weight() == 0 ? "weight 0"
                            : backend.lastConnectError() == null ? "unavailable" : backend.lastConnectError());
        }
        return text.toString();
    }
}
