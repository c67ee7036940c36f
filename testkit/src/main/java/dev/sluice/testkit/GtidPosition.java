package dev.sluice.testkit;

import java.util.Map;
import java.util.TreeMap;

/**
 * A MariaDB GTID position such as {@code 0-1-42,1-3-7}: per replication domain, the sequence number
 * of the last transaction. Comparing per domain is sound here because the servers run with
 * gtid_strict_mode, so sequence numbers only grow within a domain.
 *
 * @param lastSeqByDomain domain id to the highest sequence number seen in it
 */
record GtidPosition(Map<Long, Long> lastSeqByDomain) {

    GtidPosition {
        lastSeqByDomain = Map.copyOf(lastSeqByDomain);
    }

    /** Parses @@gtid_binlog_pos or @@gtid_slave_pos; "" is the empty position. */
    static GtidPosition parse(String text) {
        Map<Long, Long> seqs = new TreeMap<>();
        if (text == null || text.isBlank()) {
            return new GtidPosition(seqs);
        }
        for (String gtid : text.split(",")) {
            String[] parts = gtid.strip().split("-");
            if (parts.length != 3) {
                throw new IllegalArgumentException("GTID: '" + gtid.strip() + "' in '" + text
                        + "' (expected: domain-server-sequence, e.g. 0-1-42)");
            }
            try {
                Long.parseUnsignedLong(parts[1]); // the server id only has to be well-formed
                seqs.merge(Long.parseUnsignedLong(parts[0]), Long.parseUnsignedLong(parts[2]),
                        (a, b) -> Long.compareUnsigned(a, b) >= 0 ? a : b);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("GTID: '" + gtid.strip() + "' in '" + text
                        + "' (expected: three unsigned numbers)", e);
            }
        }
        return new GtidPosition(seqs);
    }

    /** Whether every transaction of {@code other} is at or before this position in its domain. */
    boolean includes(GtidPosition other) {
        for (Map.Entry<Long, Long> entry : other.lastSeqByDomain.entrySet()) {
            Long mine = lastSeqByDomain.get(entry.getKey());
            if (mine == null || Long.compareUnsigned(mine, entry.getValue()) < 0) {
                return false;
            }
        }
        return true;
    }
}
