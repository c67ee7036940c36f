package dev.sluice.proxy.gtid;

import java.util.Arrays;

/**
 * A GTID position: per replication domain, the latest transaction (as in {@code @@gtid_binlog_pos}
 * or what {@code MASTER_GTID_WAIT} takes). Immutable; domains are few (usually one), so they are
 * kept in a small array sorted by domain.
 */
public final class GtidPosition implements GtidMark {

    public static final GtidPosition EMPTY = new GtidPosition(new Gtid[0]);

    private final Gtid[] latest;

    private GtidPosition(Gtid[] latest) {
        this.latest = latest;
    }

    /**
     * Parses {@code 0-1-42,1-3-7} ({@code @@gtid_binlog_pos}); "" and null are the empty position.
     *
     * @throws IllegalArgumentException naming the GTID that is not one
     */
    public static GtidPosition parse(String text) {
        GtidPosition position = EMPTY;
        if (text == null || text.isBlank()) {
            return position;
        }
        for (String gtid : text.split(",")) {
            position = position.with(Gtid.parse(gtid));
        }
        return position;
    }

    @Override
    public boolean isEmpty() {
        return latest.length == 0;
    }

    /** MariaDB's wait: 0 when the replica got there, -1 on timeout. */
    @Override
    public String waitStatement(double timeoutSeconds) {
        return "SELECT MASTER_GTID_WAIT('" + this + "', " + timeoutSeconds + ")";
    }

    /** The latest transaction of each domain, by domain. */
    public java.util.List<Gtid> gtids() {
        return java.util.List.of(latest);
    }

    /** The latest transaction of {@code domain}, or null when there is none. */
    public Gtid get(long domain) {
        for (Gtid gtid : latest) {
            if (gtid.domain() == domain) {
                return gtid;
            }
        }
        return null;
    }

    /** This position moved on to {@code gtid} in its domain; this same object when it is not later. */
    public GtidPosition with(Gtid gtid) {
        for (int i = 0; i < latest.length; i++) {
            if (latest[i].domain() == gtid.domain()) {
                if (Long.compareUnsigned(gtid.sequence(), latest[i].sequence()) <= 0) {
                    return this;
                }
                Gtid[] next = latest.clone();
                next[i] = gtid;
                return new GtidPosition(next);
            }
        }
        Gtid[] next = Arrays.copyOf(latest, latest.length + 1);
        next[latest.length] = gtid;
        Arrays.sort(next, (a, b) -> Long.compareUnsigned(a.domain(), b.domain()));
        return new GtidPosition(next);
    }

    /** Every domain of both, at the later of the two. */
    public GtidPosition merge(GtidPosition other) {
        GtidPosition merged = this;
        for (Gtid gtid : other.latest) {
            merged = merged.with(gtid);
        }
        return merged;
    }

    /** Whether every transaction of {@code other} is at or before this position in its domain. */
    public boolean covers(GtidPosition other) {
        for (Gtid gtid : other.latest) {
            Gtid mine = get(gtid.domain());
            if (mine == null || Long.compareUnsigned(mine.sequence(), gtid.sequence()) < 0) {
                return false;
            }
        }
        return true;
    }

    /** As MariaDB writes a position: {@code 0-1-42,1-3-7}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (Gtid gtid : latest) {
            if (!text.isEmpty()) {
                text.append(',');
            }
            text.append(gtid);
        }
        return text.toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof GtidPosition position && Arrays.equals(latest, position.latest);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(latest);
    }
}
