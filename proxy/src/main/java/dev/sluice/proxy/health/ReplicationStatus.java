package dev.sluice.proxy.health;

import dev.sluice.proxy.probe.QueryResult;

/**
 * A replica's replication state from SHOW REPLICA STATUS (or SHOW SLAVE STATUS): MariaDB and
 * MySQL before 8.0.22 name the columns Slave_* and Seconds_Behind_Master, MySQL since then
 * Replica_* and Seconds_Behind_Source.
 *
 * @param configured  replication is set up (the statement returned a row)
 * @param lagSeconds  seconds behind, or null when the server does not know (a thread stopped)
 * @param description "running", "not replicating", or which thread stopped and its last error
 */
public record ReplicationStatus(boolean configured, Long lagSeconds, String description) {

    public static ReplicationStatus of(QueryResult result) {
        if (result.rows().isEmpty()) {
            return new ReplicationStatus(false, null, "not replicating");
        }
        String lag = either(result, "Seconds_Behind_Master", "Seconds_Behind_Source");
        String io = either(result, "Slave_IO_Running", "Replica_IO_Running");
        String sql = either(result, "Slave_SQL_Running", "Replica_SQL_Running");
        Long seconds = null;
        if (lag != null) {
            try {
                seconds = Long.parseLong(lag.trim());
            } catch (NumberFormatException e) {
                seconds = null;
            }
        }
        if ("Yes".equalsIgnoreCase(io) && "Yes".equalsIgnoreCase(sql)) {
            return new ReplicationStatus(true, seconds, "running");
        }
        StringBuilder why = new StringBuilder("IO thread ").append(io).append(", SQL thread ").append(sql);
        String ioError = either(result, "Last_IO_Error", "Last_IO_Error");
        String sqlError = either(result, "Last_SQL_Error", "Last_SQL_Error");
        if (ioError != null && !ioError.isEmpty()) {
            why.append(": ").append(ioError);
        }
        if (sqlError != null && !sqlError.isEmpty()) {
            why.append(": ").append(sqlError);
        }
        return new ReplicationStatus(true, seconds, why.toString());
    }

    private static String either(QueryResult result, String name, String otherName) {
        String value = result.first(name);
        return value != null ? value : result.first(otherName);
    }
}
