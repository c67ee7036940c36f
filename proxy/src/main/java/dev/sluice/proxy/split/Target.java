package dev.sluice.proxy.split;

/** Where a statement may run. */
public enum Target {
    /** Only the primary: writes, anything not provably read-only, transactions. */
    PRIMARY,
    /** A replica, or the primary when no replica can take it. */
    REPLICA
}
