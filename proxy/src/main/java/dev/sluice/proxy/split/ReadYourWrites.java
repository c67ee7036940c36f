package dev.sluice.proxy.split;

import dev.sluice.config.RoutingConfig;
import dev.sluice.config.RoutingConfig.ReadYourWritesScope;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.ServerFlavor;
import dev.sluice.proxy.gtid.AcknowledgedWrites;
import dev.sluice.proxy.gtid.Gtid;
import dev.sluice.proxy.gtid.GtidMark;
import dev.sluice.proxy.gtid.GtidPosition;
import dev.sluice.proxy.gtid.GtidSet;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Keeps a session's reads from missing writes when replicas lag behind. In gtid mode a read on a
 * replica first waits (bounded: MariaDB's MASTER_GTID_WAIT, MySQL's WAIT_FOR_EXECUTED_GTID_SET)
 * until the replica has the writes it must see, once per replica and write; if it does not get
 * there in time the read goes to the primary. In primary_window mode reads go to the primary for
 * a while after a write. Which writes: the session's own (scope session), or, from the runtime's
 * {@link AcknowledgedWrites}, every write acknowledged to its user on any connection (scope user)
 * or to anyone (scope global).
 */
final class ReadYourWrites {

    private final RoutingConfig.ReadYourWrites mode;
    private final ReadYourWritesScope scope;
    private final AcknowledgedWrites shared;
    private final Supplier<String> user;
    private final long windowNanos;
    private final Duration waitTimeout;
    private long lastWriteNanos;
    private boolean wrote;
    /**
     * Scope session: the writes to wait for. MariaDB: the last one's GTID (a later one in its domain
     * implies it); MySQL: every GTID the session committed (a parallel applier may have a later
     * transaction and not an earlier one). Null before the first write.
     */
    private GtidMark own;
    /**
     * Both collections stay the shared empty ones until a session needs them: most sessions never
     * do, and a held split session's heap is counted in hundreds of bytes.
     */
    private Set<Backend> caughtUp = java.util.Collections.emptySet();
    /** The writes the last {@link #mustWait} found the replica must have. */
    private GtidMark awaited = GtidPosition.EMPTY;
    /** Replicas that failed to catch up in time lately, with when: reads skip them for a while. */
    private java.util.Map<Backend, Long> slow = java.util.Collections.emptyMap();
    private static final long SLOW_FOR_NANOS = 1_000_000_000L;

    ReadYourWrites(RoutingConfig routing, AcknowledgedWrites shared, Supplier<String> user) {
        this.mode = routing.readYourWrites();
        this.scope = routing.readYourWritesScope();
        this.shared = shared;
        this.user = user;
        this.windowNanos = routing.primaryWindow().toNanos();
        this.waitTimeout = routing.gtidWaitTimeout();
    }

    /** A write of this session succeeded. */
    void wrote(long nowNanos) {
        wrote = true;
        lastWriteNanos = nowNanos;
        if (scope != ReadYourWritesScope.SESSION) {
            shared.wrote(user.get(), nowNanos);
        }
    }

    /** A MariaDB server reported the GTID of the session's last write (session tracking of last_gtid). */
    void gtid(String gtid) {
        if (gtid == null || gtid.isEmpty()) {
            return;
        }
        Gtid parsed;
        try {
            parsed = Gtid.parse(gtid);
        } catch (IllegalArgumentException notMariaDb) {
            // Not a MariaDB GTID (another server's variable of that name): nothing to wait for by it.
            return;
        }
        GtidPosition last = GtidPosition.EMPTY.with(parsed);
        if (!last.equals(own)) {
            own = last;
            caughtUp.clear();
            // Whatever the scope: a write lost later with its connection is shown not to have run by these.
            shared.acknowledged(user.get(), parsed);
        }
    }

    /** A MySQL server reported the GTIDs the session's statement committed (session_track_gtids). */
    void gtidSet(String gtids) {
        GtidSet reported;
        try {
            reported = GtidSet.parse(gtids);
        } catch (IllegalArgumentException notAGtidSet) {
            return;
        }
        if (reported.isEmpty()) {
            return;
        }
        GtidSet mine = own instanceof GtidSet set ? set : GtidSet.EMPTY;
        GtidSet next = mine.union(reported);
        if (next != mine || own != mine) {
            own = next;
            caughtUp.clear();
        }
        shared.acknowledged(user.get(), reported);
    }

    /** primary_window: reads stay on the primary for a while after a write. */
    boolean readOnPrimary(long nowNanos) {
        if (mode != RoutingConfig.ReadYourWrites.PRIMARY_WINDOW) {
            return false;
        }
        if (scope != ReadYourWritesScope.SESSION) {
            return shared.wroteWithin(scope, user.get(), nowNanos, windowNanos);
        }
        return wrote && nowNanos - lastWriteNanos < windowNanos;
    }

    /**
     * gtid: this replica, a server of {@code flavor}, must first be shown to have the writes the
     * session must see. Scope session waits for what the session's own primary reported, whichever
     * flavor: a replica that cannot wait for it answers the wait with an error, and the read goes
     * to the primary.
     */
    boolean mustWait(Backend replica, ServerFlavor flavor) {
        if (mode != RoutingConfig.ReadYourWrites.GTID) {
            return false;
        }
        if (scope == ReadYourWritesScope.SESSION) {
            awaited = own;
            return own != null && !caughtUp.contains(replica);
        }
        awaited = shared.mark(scope, user.get(), flavor);
        return !shared.hasApplied(replica, awaited);
    }

    /** The statement that waits for what {@link #mustWait} found; its one column is 0 when the replica got there. */
    String waitStatement() {
        return awaited.waitStatement(waitTimeout.toMillis() / 1000.0);
    }

    void caughtUp(Backend replica) {
        if (scope == ReadYourWritesScope.SESSION) {
            if (!(caughtUp instanceof HashSet)) {
                caughtUp = new HashSet<>();
            }
            caughtUp.add(replica);
        } else {
            shared.caughtUp(replica, awaited);
        }
    }

    boolean gtidMode() {
        return mode == RoutingConfig.ReadYourWrites.GTID;
    }

    /** The replica did not get to the session's last write in time: it is skipped for a second. */
    void tooSlow(Backend replica, long nowNanos) {
        if (!(slow instanceof java.util.HashMap)) {
            slow = new java.util.HashMap<>();
        }
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
