package dev.sluice.proxy.stats;

import dev.sluice.proxy.observe.SessionInfo;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.internal.ThreadExecutorMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The live sessions, for the admin's sessions table. A snapshot asks each session's own event loop
 * for its figures, so nothing the session writes is ever read from another thread; call it off
 * the event loops (the admin threads), as it waits for them.
 */
public final class SessionRegistry {

    private final Map<Long, SessionRecord> sessions = new ConcurrentHashMap<>();

    SessionRecord started(SessionInfo session) {
        EventExecutor loop = ThreadExecutorMap.currentExecutor();
        SessionRecord record = new SessionRecord(session, loop, System.currentTimeMillis());
        sessions.put(session.sessionId(), record);
        return record;
    }

    void ended(SessionInfo session) {
        sessions.remove(session.sessionId());
    }

    SessionRecord get(SessionInfo session) {
        return sessions.get(session.sessionId());
    }

    public int size() {
        return sessions.size();
    }

    /** Every live session's row, by id; a loop that does not answer within the timeout leaves its sessions out. */
    public List<SessionRow> snapshot(long timeoutMillis) {
        return snapshot(sessions.values(), timeoutMillis);
    }

    /**
     * The rows of the {@code limit} newest sessions (highest ids), by id: a page that asks every
     * second puts a task on the event loops per session it shows, not per session there is.
     */
    public List<SessionRow> newest(int limit, long timeoutMillis) {
        if (limit <= 0) {
            return List.of();
        }
        PriorityQueue<SessionRecord> newest = new PriorityQueue<>(Comparator.comparingLong(r -> r.session.sessionId()));
        for (SessionRecord record : sessions.values()) {
            newest.add(record);
            if (newest.size() > limit) {
                newest.poll();
            }
        }
        return snapshot(newest, timeoutMillis);
    }

    private static List<SessionRow> snapshot(Collection<SessionRecord> records, long timeoutMillis) {
        long now = System.currentTimeMillis();
        List<Future<SessionRow>> pending = new ArrayList<>();
        List<SessionRow> rows = new ArrayList<>();
        for (SessionRecord record : records) {
            if (record.loop == null || record.loop.isShuttingDown()) {
                rows.add(record.snapshot(now));
            } else {
                pending.add(record.loop.submit(() -> record.snapshot(now)));
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        for (Future<SessionRow> future : pending) {
            long left = Math.max(0, deadline - System.nanoTime());
            if (future.awaitUninterruptibly(left, TimeUnit.NANOSECONDS) && future.isSuccess()) {
                rows.add(future.getNow());
            }
        }
        rows.sort(Comparator.comparingLong(SessionRow::id));
        return rows;
    }
}
