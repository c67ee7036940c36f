package dev.sluice.proxy.health;

import dev.sluice.proxy.probe.OwnConnection;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the checks know about one backend. Written by the health checker's event loop only; the
 * fields others read are volatile.
 */
public final class BackendHealth {

    OwnConnection connection;
    volatile boolean checking;
    int consecutiveFailures;
    int consecutiveSuccesses;
    /**
     * Sessions could not connect while the check's own connection still answered pings: the next
     * check opens a new connection, since that is what failed.
     */
    boolean reconnect;
    /** MySQL 8.4 dropped SHOW SLAVE STATUS, MariaDB before 10.5 lacks SHOW REPLICA STATUS: the one that worked. */
    String replicaStatusQuery = "SHOW REPLICA STATUS";
    /** MariaDB has @@gtid_binlog_pos; a server that answered an error for it is not asked again. */
    boolean asksBinlogPosition = true;

    private volatile long lastCheckMillis;
    private volatile String lastError;
    private volatile Boolean readOnly;
    private volatile String replication;
    final LongAdder passed = new LongAdder();
    final LongAdder failed = new LongAdder();
    /** Statements the checks ran that count in Com_select and Com_show_slave_status. */
    final LongAdder selects = new LongAdder();
    final LongAdder replicaStatuses = new LongAdder();

    void checked(long nowMillis, String error) {
        lastCheckMillis = nowMillis;
        lastError = error;
        if (error == null) {
            passed.increment();
        } else {
            failed.increment();
        }
    }

    void readOnly(Boolean value) {
        readOnly = value;
    }

    void replication(String state) {
        replication = state;
    }

    /** True while a check of this backend is under way. */
    public boolean checking() {
        return checking;
    }

    /** When the last check ended (epoch millis), 0 before the first. */
    public long lastCheckMillis() {
        return lastCheckMillis;
    }

    /** Why the last check failed, or null when it passed. */
    public String lastError() {
        return lastError;
    }

    /** {@code @@read_only} as last seen, or null when not known. */
    public Boolean readOnly() {
        return readOnly;
    }

    /**
     * Replicas: "running", "not replicating" (no replication set up), or which thread is stopped
     * and why; null for primaries and before the first check.
     */
    public String replication() {
        return replication;
    }

    public long checksPassed() {
        return passed.sum();
    }

    public long checksFailed() {
        return failed.sum();
    }

    /** SELECT statements the checks ran on this backend (its Com_select counts them). */
    public long selectsSent() {
        return selects.sum();
    }

    /** SHOW REPLICA STATUS statements the checks ran (its Com_show_slave_status counts them). */
    public long replicaStatusesSent() {
        return replicaStatuses.sum();
    }
}
