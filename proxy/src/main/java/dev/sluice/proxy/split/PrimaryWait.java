package dev.sluice.proxy.split;

import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendLoginException;
import dev.sluice.proxy.stats.ProxyStats;
import io.netty.channel.EventLoop;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A statement that finds no backend to run on (the primary is down, restarting or not known yet,
 * two are writable, a failover is under way) waits for one, up to {@code timeouts.primary_wait},
 * instead of failing at once: it looks again every {@link #POLL_NANOS} (a backend comes back when
 * a health check passes or a connect backoff ends; both are seen at the next look). One per
 * session, for the statement being routed.
 */
final class PrimaryWait {

    /** Looking again costs a walk over the backends: 20 looks a second per waiting statement is nothing. */
    static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final Supplier<SluiceConfig> config;
    private final ProxyStats stats;
    private final SplitBackends backends;
    /** When the statement being routed stops waiting; 0 while it has not waited. */
    private long deadlineNanos;

    PrimaryWait(Supplier<SluiceConfig> config, ProxyStats stats, SplitBackends backends) {
        this.config = config;
        this.stats = stats;
        this.backends = backends;
    }

    /** A new statement is routed: it has not waited yet. */
    void reset() {
        deadlineNanos = 0;
    }

    /**
     * Schedules {@code retry} on {@code loop} if the statement may wait on; false when it may not
     * (primary_wait is 0 or over): the caller fails it with {@link #failure}.
     */
    boolean retryLater(EventLoop loop, Runnable retry) {
        long now = System.nanoTime();
        if (deadlineNanos == 0) {
            long wait = config.get().timeouts().primaryWait().toNanos();
            if (wait == 0) {
                return false;
            }
            deadlineNanos = now + wait == 0 ? 1 : now + wait;
            stats.primaryWaited();
        } else if (now - deadlineNanos >= 0) {
            return false;
        }
        loop.schedule(retry, Math.min(POLL_NANOS, deadlineNanos - now), TimeUnit.NANOSECONDS);
        return true;
    }

    /** Whether an acquire that failed this way may be waited out: the backend could not be reached, or is shutting down. */
    static boolean worthWaiting(Throwable cause) {
        return cause instanceof BackendLoginException e && (!e.refusedByServer() || e.errorCode() == SHUTDOWN_IN_PROGRESS);
    }

    private static final int SHUTDOWN_IN_PROGRESS = 1053;

    /** The ERR message for a statement that found no backend, naming each primary and why it cannot take it. */
    String failure() {
        boolean waited = deadlineNanos != 0;
        String conflict = backends.primaries().noPrimaryReason();
        if (waited) {
            stats.primaryWaitTimedOut();
        }
        if (backends.primaries().splitBrain()) {
            stats.splitBrainRefused();
        }
        StringBuilder text = new StringBuilder("No backend available for this statement: ");
        if (conflict != null) {
            text.append(conflict);
        } else {
            text.append("no primary is up (");
            int start = text.length();
            backends.backends().get().stream().filter(Backend::isPrimary).forEach(b -> text.append(text.length() > start ? "; " : "")
                    .append(b.name()).append(' ').append(b.config().address()).append(": ")
                    .append(b.state() != Backend.State.ONLINE ? b.state().name().toLowerCase(Locale.ROOT)
                            : b.lastConnectError() != null ? b.lastConnectError() : "unavailable"));
            text.append(')');
        }
        if (waited) {
            text.append(", after waiting timeouts.primary_wait (")
                    .append(config.get().timeouts().primaryWait().toMillis()).append(" ms)");
        }
        return text.toString();
    }
}
