package dev.sluice.proxy.backend;

import io.netty.util.concurrent.Promise;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The acquisitions on one event loop that found no idle connection, by pool key, oldest first,
 * and the logins under way for them there. Touched only by its loop's thread, so it has no lock.
 */
final class LoopDemand {

    /** An acquisition waiting for a connection: given back on this loop, or newly logged in. */
    record Waiting(PoolKey key, LoginRequest request, Promise<BackendConnection> result) {
    }

    private final Map<PoolKey, ArrayDeque<Waiting>> waiting = new HashMap<>(4);
    /** The pool's count of acquisitions waiting on all its loops, which the stats read from other threads. */
    private final AtomicInteger waitingOnAllLoops;
    private final Map<PoolKey, int[]> loggingIn = new HashMap<>(4);
    private int loginsUnderWay;

    LoopDemand(AtomicInteger waitingOnAllLoops) {
        this.waitingOnAllLoops = waitingOnAllLoops;
    }

    void add(Waiting acquisition) {
        waiting.computeIfAbsent(acquisition.key(), k -> new ArrayDeque<>()).addLast(acquisition);
        waitingOnAllLoops.incrementAndGet();
    }

    /** False when it no longer waits here (served, failed, or sent to the pool's queue). */
    boolean remove(Waiting acquisition) {
        ArrayDeque<Waiting> ofKey = waiting.get(acquisition.key());
        if (ofKey == null || !ofKey.remove(acquisition)) {
            return false;
        }
        waitingOnAllLoops.decrementAndGet();
        forgetIfEmpty(acquisition.key(), ofKey);
        return true;
    }

    /** Keys come and go (per client address towards a backend sent PROXY headers): none is kept empty. */
    private void forgetIfEmpty(PoolKey key, ArrayDeque<Waiting> ofKey) {
        if (ofKey.isEmpty()) {
            waiting.remove(key);
        }
    }

    /**
     * The oldest acquisition still waiting that {@code connection} {@linkplain BackendConnection#serves
     * serves}, taken out; null when none is.
     */
    Waiting poll(BackendConnection connection) {
        ArrayDeque<Waiting> ofKey = waiting.get(connection.poolKey());
        if (ofKey == null) {
            return null;
        }
        for (Iterator<Waiting> it = ofKey.iterator(); it.hasNext(); ) {
            Waiting next = it.next();
            if (next.result().isDone()) {
                it.remove();
                waitingOnAllLoops.decrementAndGet();
            } else if (connection.serves(next.request().schema())) {
                it.remove();
                waitingOnAllLoops.decrementAndGet();
                forgetIfEmpty(connection.poolKey(), ofKey);
                return next;
            }
        }
        forgetIfEmpty(connection.poolKey(), ofKey);
        return null;
    }

    /** Every acquisition waiting, taken out (the pool closes). */
    List<Waiting> drainAll() {
        List<Waiting> all = new ArrayList<>();
        waiting.values().forEach(all::addAll);
        waiting.clear();
        waitingOnAllLoops.addAndGet(-all.size());
        return all;
    }

    /** Every acquisition of {@code key} waiting, taken out. */
    List<Waiting> drain(PoolKey key) {
        ArrayDeque<Waiting> ofKey = waiting.remove(key);
        if (ofKey == null) {
            return List.of();
        }
        waitingOnAllLoops.addAndGet(-ofKey.size());
        return new ArrayList<>(ofKey);
    }

    /**
     * An acquisition no login under way covers: of a key with more acquisitions waiting than
     * logins under way for it, the first beyond those. Null when every one is covered.
     */
    Waiting uncovered() {
        for (var entry : waiting.entrySet()) {
            int covered = loggingIn(entry.getKey());
            if (entry.getValue().size() > covered) {
                int skip = covered;
                for (Waiting candidate : entry.getValue()) {
                    if (skip-- == 0) {
                        return candidate;
                    }
                }
            }
        }
        return null;
    }

    /** How many keys have acquisitions waiting. */
    int keysWaiting() {
        return waiting.size();
    }

    int loginsUnderWay() {
        return loginsUnderWay;
    }

    void loginStarted(PoolKey key) {
        loggingIn.computeIfAbsent(key, k -> new int[1])[0]++;
        loginsUnderWay++;
    }

    void loginEnded(PoolKey key) {
        int[] count = loggingIn.get(key);
        if (count != null && --count[0] == 0) {
            loggingIn.remove(key);
        }
        loginsUnderWay--;
    }

    private int loggingIn(PoolKey key) {
        int[] count = loggingIn.get(key);
        return count == null ? 0 : count[0];
    }
}
