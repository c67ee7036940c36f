package dev.sluice.proxy.kill;

import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The client sessions of one proxy that are past login: by the thread id the proxy greeted them
 * with (users configured, either mode), which is what a KILL names, and the pass-through ones,
 * which no KILL names but which a backend that stopped answering fails all the same.
 */
public final class LiveSessions {

    private final Map<Long, KillableSession> byId = new ConcurrentHashMap<>();
    private final Set<KillableSession> passThrough = ConcurrentHashMap.newKeySet();
    private final AtomicLong ids = new AtomicLong();

    /** The thread id for the next greeting (32 bits, as the protocol carries it). */
    public long nextId() {
        return ids.incrementAndGet() & 0xFFFF_FFFFL;
    }

    public void register(long id, KillableSession session) {
        byId.put(id, session);
    }

    public void unregister(long id, KillableSession session) {
        byId.remove(id, session);
    }

    public void registerPassThrough(KillableSession session) {
        passThrough.add(session);
    }

    public void unregisterPassThrough(KillableSession session) {
        passThrough.remove(session);
    }

    /** The live session the proxy greeted with {@code id}, if any. */
    public Optional<KillableSession> byId(long id) {
        return Optional.ofNullable(byId.get(id));
    }

    /**
     * {@code backend} stopped answering its health checks: the statements in flight there fail now,
     * each on its session's loop (an autocommit read on a replica is retried elsewhere), instead of
     * waiting for a server that may never answer (kill -STOP, a hung disk, a dead network path).
     */
    public void failStatementsOn(Backend backend, String reason) {
        List<KillableSession> sessions = new ArrayList<>(byId.values());
        sessions.addAll(passThrough);
        for (KillableSession session : sessions) {
            session.eventLoop().execute(() -> {
                BackendConnection connection = session.statementConnection();
                if (connection != null && connection.backend() == backend) {
                    connection.fail(reason);
                }
            });
        }
    }
}
