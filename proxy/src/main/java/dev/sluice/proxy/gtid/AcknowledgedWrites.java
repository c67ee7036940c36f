package dev.sluice.proxy.gtid;

import dev.sluice.config.RoutingConfig.ReadYourWritesScope;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.ServerFlavor;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the proxy has told clients was written, shared by the sessions of every event loop, for
 * reads that must see writes made on other connections ({@code read_your_writes_scope: user} or
 * {@code global}): the GTID of the latest write acknowledged to each user and to anyone (MariaDB),
 * or the set of every write acknowledged to them (MySQL), when the latest write was, and how far
 * each replica is known to have applied. It also remembers which
 * recent transactions were acknowledged, one by one, so that after a write was lost with its
 * connection the primary's binlog can show it did not run ({@link #notOnlyAcknowledged}). Owned by the
 * runtime. Every update is a compare-and-set that allocates only when a position moves on, or a
 * plain store: no lock on the event loops' path.
 */
public final class AcknowledgedWrites {

    private static final long NEVER = Long.MIN_VALUE;
    /** Transactions remembered one by one per domain: far more than commit between a write and its loss. */
    static final int REMEMBERED = 1 << 14;

    /** One user's writes, or everyone's. */
    private static final class Writes {
        final AtomicReference<GtidPosition> position = new AtomicReference<>(GtidPosition.EMPTY);
        final AtomicReference<GtidSet> executed = new AtomicReference<>(GtidSet.EMPTY);
        final AtomicLong lastWriteNanos = new AtomicLong(NEVER);
    }

    private final Writes everyone = new Writes();
    /** By user name: the proxy authenticates its users itself, so there are as many as the config has. */
    private final ConcurrentHashMap<String, Writes> byUser = new ConcurrentHashMap<>();
    /** What each replica is known to have applied, from the waits that succeeded there. */
    private final ConcurrentHashMap<Backend, AtomicReference<GtidPosition>> applied = new ConcurrentHashMap<>();
    /** MySQL replicas: the sets they are known to have executed. */
    private final ConcurrentHashMap<Backend, AtomicReference<GtidSet>> appliedSets = new ConcurrentHashMap<>();
    /**
     * Per domain, the sequence numbers acknowledged lately, each in slot {@code sequence % REMEMBERED}:
     * a slot holds exactly the sequence that was acknowledged, so an older one there never passes for it.
     */
    private final ConcurrentHashMap<Long, AtomicLongArray> sequences = new ConcurrentHashMap<>();
    /** The primaries' binlog positions as the health checks read them: a floor for domains no write here reached. */
    private final AtomicReference<GtidPosition> observed = new AtomicReference<>(GtidPosition.EMPTY);

    /** A write of {@code user}'s succeeded on a primary. */
    public void wrote(String user, long nowNanos) {
        latest(everyone.lastWriteNanos, nowNanos);
        latest(writes(user).lastWriteNanos, nowNanos);
    }

    /** The server reported the GTID of a write it ran for {@code user} (last_gtid in its OK). */
    public void acknowledged(String user, Gtid gtid) {
        advance(everyone.position, gtid);
        advance(writes(user).position, gtid);
        AtomicLongArray recent = sequences.get(gtid.domain());
        if (recent == null) {
            recent = sequences.computeIfAbsent(gtid.domain(), d -> new AtomicLongArray(REMEMBERED));
        }
        recent.set((int) Long.remainderUnsigned(gtid.sequence(), REMEMBERED), gtid.sequence());
    }

    /** A MySQL server reported the GTIDs a session of {@code user} committed (session_track_gtids). */
    public void acknowledged(String user, GtidSet gtids) {
        unite(everyone.executed, gtids);
        unite(writes(user).executed, gtids);
    }

    /** A health check read a primary's {@code @@gtid_binlog_pos}. */
    public void observed(GtidPosition binlogPosition) {
        GtidPosition current;
        GtidPosition next;
        do {
            current = observed.get();
            next = current.merge(binlogPosition);
        } while (next != current && !observed.compareAndSet(current, next));
    }

    /**
     * A floor under every transaction that commits from now on: per domain, the latest acknowledged
     * or seen in a primary's binlog. Taken as a write is sent; no allocation unless the health checks
     * saw a domain the writes did not.
     */
    public GtidPosition floor() {
        return everyone.position.get().merge(observed.get());
    }

    /**
     * Whether every transaction in {@code binlog} after {@code floor} was acknowledged to a client:
     * then a write sent after {@code floor} was taken, whose answer was lost, did not commit (it would
     * be one of them, unacknowledged).
     *
     * @return null when so; else why it cannot be shown: a transaction no client was told of (it may
     *         be the lost write), a domain of the binlog the floor lacks, more transactions than are
     *         remembered, no binlog position at all
     */
    public String notOnlyAcknowledged(GtidPosition floor, GtidPosition binlog) {
        if (binlog.isEmpty() || floor.isEmpty()) {
            return "no GTID position to go by (binlog " + (binlog.isEmpty() ? "empty" : binlog) + ")";
        }
        for (Gtid last : binlog.gtids()) {
            Gtid from = floor.get(last.domain());
            if (from == null) {
                return "domain " + Long.toUnsignedString(last.domain()) + " has transactions no write here reached";
            }
            long count = last.sequence() - from.sequence();
            if (count <= 0) {
                continue;
            }
            AtomicLongArray recent = sequences.get(last.domain());
            if (count > REMEMBERED || recent == null) {
                return count + " transactions in domain " + Long.toUnsignedString(last.domain()) + " since it was sent";
            }
            for (long sequence = from.sequence() + 1; sequence - last.sequence() <= 0; sequence++) {
                if (recent.get((int) Long.remainderUnsigned(sequence, REMEMBERED)) != sequence) {
                    return "transaction " + Long.toUnsignedString(last.domain()) + "-" + Long.toUnsignedString(sequence)
                            + " (of " + from + " to " + last + ") was acknowledged to no client";
                }
            }
        }
        return null;
    }

    /** The writes a read in {@code scope} must see: the latest acknowledged to {@code user}, or to anyone. */
    public GtidPosition position(ReadYourWritesScope scope, String user) {
        if (scope == ReadYourWritesScope.GLOBAL) {
            return everyone.position.get();
        }
        Writes mine = byUser.get(user);
        return mine == null ? GtidPosition.EMPTY : mine.position.get();
    }

    /** The writes a read in {@code scope} must see on a server of {@code flavor}: a position, or a set. */
    public GtidMark mark(ReadYourWritesScope scope, String user, ServerFlavor flavor) {
        if (flavor == ServerFlavor.MARIADB) {
            return position(scope, user);
        }
        Writes writes = scope == ReadYourWritesScope.GLOBAL ? everyone : byUser.get(user);
        return writes == null ? GtidSet.EMPTY : writes.executed.get();
    }

    /** Whether the latest write in {@code scope} was less than {@code windowNanos} ago. */
    public boolean wroteWithin(ReadYourWritesScope scope, String user, long nowNanos, long windowNanos) {
        Writes writes = scope == ReadYourWritesScope.GLOBAL ? everyone : byUser.get(user);
        long last = writes == null ? NEVER : writes.lastWriteNanos.get();
        return last != NEVER && nowNanos - last < windowNanos;
    }

    /** Whether {@code replica} is known to have applied every write of {@code mark}. */
    public boolean hasApplied(Backend replica, GtidMark mark) {
        if (mark.isEmpty()) {
            return true;
        }
        return switch (mark) {
            case GtidPosition position -> {
                AtomicReference<GtidPosition> known = applied.get(replica);
                yield known != null && known.get().covers(position);
            }
            case GtidSet set -> {
                AtomicReference<GtidSet> known = appliedSets.get(replica);
                yield known != null && known.get().contains(set);
            }
        };
    }

    /** {@code replica} was shown to have applied every write of {@code mark} (its wait answered 0). */
    public void caughtUp(Backend replica, GtidMark mark) {
        switch (mark) {
            case GtidPosition position -> {
                AtomicReference<GtidPosition> known = applied.computeIfAbsent(replica,
                        b -> new AtomicReference<>(GtidPosition.EMPTY));
                GtidPosition current;
                GtidPosition next;
                do {
                    current = known.get();
                    next = current.merge(position);
                } while (next != current && !known.compareAndSet(current, next));
            }
            case GtidSet set -> unite(appliedSets.computeIfAbsent(replica, b -> new AtomicReference<>(GtidSet.EMPTY)), set);
        }
    }

    private Writes writes(String user) {
        Writes mine = byUser.get(user);
        return mine != null ? mine : byUser.computeIfAbsent(user, u -> new Writes());
    }

    private static void advance(AtomicReference<GtidPosition> position, Gtid gtid) {
        GtidPosition current;
        GtidPosition next;
        do {
            current = position.get();
            next = current.with(gtid);
        } while (next != current && !position.compareAndSet(current, next));
    }

    private static void unite(AtomicReference<GtidSet> into, GtidSet gtids) {
        GtidSet current;
        GtidSet next;
        do {
            current = into.get();
            next = current.union(gtids);
        } while (next != current && !into.compareAndSet(current, next));
    }

    private static void latest(AtomicLong last, long nowNanos) {
        long seen;
        do {
            seen = last.get();
        } while ((seen == NEVER || nowNanos - seen > 0) && !last.compareAndSet(seen, nowNanos));
    }
}
