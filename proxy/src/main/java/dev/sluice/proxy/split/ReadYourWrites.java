package dev.sluice.proxy.split;

import dev.sluice.config.RoutingConfig;
import dev.sluice.proxy.backend.Backend;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/**
 * Keeps a session's reads from missing its own writes when replicas lag behind. In gtid mode a
 * read on a replica first waits (MariaDB's MASTER_GTID_WAIT, bounded) until the replica has the
 * GTID of the session's last write, once per replica and write; if it does not get there in time
 * the read goes to the primary. In primary_window mode reads go to the primary for a while after a
 * write.
 */
final class ReadYourWrites {

    private final RoutingConfig.ReadYourWrites mode;
    private final long windowNanos;
    private final Duration waitTimeout;
    private long lastWriteNanos;
    private boolean wrote;
    private String lastGtid;
    private final Set<Backend> caughtUp = new HashSet<>();
    /** Replicas that failed to catch up in time lately, with when: reads skip them for a while. */
    private final java.util.Map<Backend, Long> slow = new java.util.HashMap<>();
    private static final long SLOW_FOR_NANOS = 1_000_000_000L;

    ReadYourWrites(RoutingConfig routing) {
        this.mode = routing.readYourWrites();
        this.windowNanos = routing.primaryWindow().toNanos();
        this.waitTimeout = routing.gtidWaitTimeout();
    }

    /** A write of this session succeeded. */
    void wrote(long nowNanos) {
        wrote = true;
        lastWriteNanos = nowNanos;
    }

    /** The server reported the GTID of the session's last write (session tracking of last_gtid). */
    void gtid(String gtid) {
        if (gtid != null && !gtid.isEmpty() && !gtid.equals(lastGtid)) {
            lastGtid = gtid;
            caughtUp.clear();
        }
    }

    /** primary_window: reads stay on the primary for a while after a write. */
    boolean readOnPrimary(long nowNanos) {
        return mode == RoutingConfig.ReadYourWrites.PRIMARY_WINDOW && wrote && nowNanos - lastWriteNanos < windowNanos;
    }

    /** gtid: this replica must first be shown to have the session's last write. */
    boolean mustWait(Backend replica) {
        return mode == RoutingConfig.ReadYourWrites.GTID && lastGtid != null && !caughtUp.contains(replica);
    }

    /** The statement that waits; its one column is 0 when the replica got there, -1 on timeout. */
    String waitStatement() {
        double seconds = waitTimeout.toMillis() / 1000.0;
        return "SELECT MASTER_GTID_WAIT('" + lastGtid.replace("'", "") + "', " + seconds + ")";
    }

    void caughtUp(Backend replica) {
        caughtUp.add(replica);
    }

    boolean gtidMode() {
        return mode == RoutingConfig.ReadYourWrites.GTID;
    }

    /** The replica did not get to the session's last write in time: it is skipped for a second. */
    void tooSlow(Backend replica, long nowNanos) {
        slow.put(replica, nowNanos);
    }

    /** Replicas to skip now. */
    Set<Backend> slowReplicas(long nowNanos) {
        if (slow.isEmpty()) {
            return Set.of();
        }
        slow.values().removeIf(since -> nowNanos - since > SLOW_FOR_NANOS);
        return Set.copyOf(slow.keySet());
    }
}
