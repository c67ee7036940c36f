package dev.sluice.proxy.stats;

import dev.sluice.proxy.observe.SessionInfo;
import io.netty.util.concurrent.EventExecutor;
import java.net.InetSocketAddress;
import java.util.Set;

/**
 * One live client session as the stats see it. Its counters are written on the session's event
 * loop only, and read there too ({@link #snapshot()} runs on that loop), so they need no atomics.
 */
final class SessionRecord {

    final SessionInfo session;
    /** The session's event loop, or null when it was not started on one (then reads are racy but harmless). */
    final EventExecutor loop;
    final long startedMillis;
    long statements;
    long toPrimary;
    long toReplica;
    long errors;
    long lastStatementMillis;

    SessionRecord(SessionInfo session, EventExecutor loop, long startedMillis) {
        this.session = session;
        this.loop = loop;
        this.startedMillis = startedMillis;
        this.lastStatementMillis = startedMillis;
    }

    /** What a session looks like now; call on its event loop. */
    SessionRow snapshot(long nowMillis) {
        String client = session.clientAddress() instanceof InetSocketAddress address
                ? address.getHostString() + ":" + address.getPort() : String.valueOf(session.clientAddress());
        Set<String> pins = session.pins();
        return new SessionRow(session.sessionId(), session.user(), client, session.schema(), session.backendName(),
                String.join(",", pins), statements, toPrimary, toReplica, errors, startedMillis,
                Math.max(0, nowMillis - lastStatementMillis));
    }
}
