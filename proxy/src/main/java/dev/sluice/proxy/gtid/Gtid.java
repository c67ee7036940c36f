package dev.sluice.proxy.gtid;

/**
 * One MariaDB GTID, {@code domain-server-sequence}: the transaction numbered {@code sequence} in
 * replication domain {@code domain}, first written by server {@code server}. Sequence numbers only
 * grow within a domain (gtid_strict_mode; across a failover too, as the new primary goes on from
 * what it applied), so within a domain the larger sequence is the later transaction.
 */
public record Gtid(long domain, long server, long sequence) {

    /**
     * Parses {@code 0-1-42}, as MariaDB reports last_gtid.
     *
     * @throws IllegalArgumentException saying what was expected
     */
    public static Gtid parse(String text) {
        String[] parts = text.strip().split("-");
        if (parts.length != 3) {
            throw new IllegalArgumentException("GTID: \"" + text + "\" (expected: domain-server-sequence, e.g. 0-1-42)");
        }
        try {
            return new Gtid(Long.parseUnsignedLong(parts[0]), Long.parseUnsignedLong(parts[1]),
                    Long.parseUnsignedLong(parts[2]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("GTID: \"" + text + "\" (expected: three unsigned numbers)", e);
        }
    }

    @Override
    public String toString() {
        return Long.toUnsignedString(domain) + "-" + Long.toUnsignedString(server) + "-" + Long.toUnsignedString(sequence);
    }
}
