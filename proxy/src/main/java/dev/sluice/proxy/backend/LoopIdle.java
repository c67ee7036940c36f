package dev.sluice.proxy.backend;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One pool's idle connections on one event loop, by pool key, oldest first. The loop takes and
 * gives back its own; another thread reaches in only to make room under max_connections (the
 * oldest idle connection anywhere closes for a waiter elsewhere), to evict or to close. So the
 * lock here is one loop's, and uncontended on the common path. A set in order of use, not a deque:
 * a session asks for connections by name ({@link #take(PoolKey, Collection)}).
 */
final class LoopIdle {

    /** At most this many preferred connections are looked for, so a long list costs a take little. */
    private static final int MAX_PREFERRED = 8;

    private final Map<PoolKey, LinkedHashSet<BackendConnection>> byKey = new HashMap<>(4);
    private int count;

    synchronized int count() {
        return count;
    }

    synchronized void add(BackendConnection connection) {
        byKey.computeIfAbsent(connection.poolKey(), k -> new LinkedHashSet<>()).add(connection);
        count++;
    }

    /**
     * The most recently used connection of {@code key} with {@code schema} selected, else one that
     * {@linkplain BackendConnection#serves serves} it. Null when there is none.
     */
    synchronized BackendConnection take(PoolKey key, String schema) {
        LinkedHashSet<BackendConnection> candidates = byKey.get(key);
        if (candidates == null || candidates.isEmpty()) {
            return null;
        }
        BackendConnection fallback = null;
        for (Iterator<BackendConnection> it = candidates.reversed().iterator(); it.hasNext(); ) {
            BackendConnection candidate = it.next();
            if (!candidate.isUsable()) {
                continue;
            }
            if (Objects.equals(candidate.schema(), schema)) {
                it.remove();
                count--;
                return candidate;
            }
            if (fallback == null && candidate.serves(schema)) {
                fallback = candidate;
            }
        }
        if (fallback != null) {
            candidates.remove(fallback);
            count--;
        }
        return fallback;
    }

    /**
     * For a split-mode session (which replays schema and state on any connection): one of
     * {@code preferred} that is idle here under {@code key} and usable, else the connection of
     * {@code key} idle longest; the most recently used one when {@code preferred} is null. Null when
     * none is idle.
     */
    synchronized BackendConnection take(PoolKey key, Collection<? extends BackendConnection> preferred) {
        LinkedHashSet<BackendConnection> candidates = byKey.get(key);
        if (preferred == null || candidates == null || candidates.isEmpty()) {
            return take(key, (String) null);
        }
        Iterator<? extends BackendConnection> wants = preferred.iterator();
        for (int asked = 0; asked < MAX_PREFERRED && wants.hasNext(); asked++) {
            BackendConnection wanted = wants.next();
            if (wanted.isUsable() && candidates.remove(wanted)) {
                count--;
                return wanted;
            }
        }
        for (Iterator<BackendConnection> it = candidates.iterator(); it.hasNext(); ) {
            BackendConnection oldest = it.next();
            if (oldest.isUsable()) {
                it.remove();
                count--;
                return oldest;
            }
        }
        return null;
    }

    /** Takes {@code connection} out; false when it was not idle here (taken, or never given back). */
    synchronized boolean remove(BackendConnection connection) {
        LinkedHashSet<BackendConnection> connections = byKey.get(connection.poolKey());
        if (connections != null && connections.remove(connection)) {
            count--;
            return true;
        }
        return false;
    }

    /** The connection idle longest here, taken out; null when none is. */
    synchronized BackendConnection takeOldest() {
        BackendConnection oldest = peekOldest();
        return oldest == null ? null : removeOldest(oldest);
    }

    /** The connection idle longest here if it is idle since before {@code cutoffNanos}, taken out; else null. */
    synchronized BackendConnection takeOldestIdleSince(long cutoffNanos) {
        BackendConnection oldest = peekOldest();
        return oldest == null || oldest.idleSinceNanos() - cutoffNanos >= 0 ? null : removeOldest(oldest);
    }

    /** {@code oldest} is the first of its key's connections (the one {@link #peekOldest} found). */
    private BackendConnection removeOldest(BackendConnection oldest) {
        byKey.get(oldest.poolKey()).removeFirst();
        count--;
        return oldest;
    }

    /** The connection idle longest here, left in place; null when none is. */
    synchronized BackendConnection peekOldest() {
        BackendConnection oldest = null;
        for (LinkedHashSet<BackendConnection> connections : byKey.values()) {
            BackendConnection first = connections.isEmpty() ? null : connections.getFirst();
            if (first != null && (oldest == null || first.idleSinceNanos() - oldest.idleSinceNanos() < 0)) {
                oldest = first;
            }
        }
        return oldest;
    }

    /** Takes out the connections idle since before {@code cutoffNanos}. */
    synchronized List<BackendConnection> takeIdleSince(long cutoffNanos) {
        List<BackendConnection> evicted = new ArrayList<>();
        for (LinkedHashSet<BackendConnection> connections : byKey.values()) {
            while (!connections.isEmpty() && connections.getFirst().idleSinceNanos() - cutoffNanos < 0) {
                evicted.add(connections.removeFirst());
                count--;
            }
        }
        return evicted;
    }

    /** Takes out every connection. */
    synchronized List<BackendConnection> takeAll() {
        List<BackendConnection> all = new ArrayList<>(count);
        byKey.values().forEach(all::addAll);
        byKey.clear();
        count = 0;
        return all;
    }
}
