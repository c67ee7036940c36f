package dev.sluice.testkit;

/** What a server does in its cluster. */
public enum Role {
    /** Writable, with a binlog the replicas read. */
    PRIMARY,
    /** read_only=ON, replicating from the primary by GTID. */
    REPLICA
}
