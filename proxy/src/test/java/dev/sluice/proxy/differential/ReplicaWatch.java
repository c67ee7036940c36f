package dev.sluice.proxy.differential;

import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbException;
import dev.sluice.testkit.MariaDbServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether the replicas are still what they should be after a phase: caught up with the primary,
 * and with nothing in their binlogs that they wrote themselves. A statement a client meant for
 * the primary that runs on a replica and is logged there (temporary tables are allowed under
 * read_only) gives the replica a GTID of its own server id; with gtid_strict_mode the next
 * transaction from the primary with that sequence number stops the replica's SQL thread.
 */
final class ReplicaWatch {

    private ReplicaWatch() {
    }

    /** What is wrong with replication, naming the events replicas wrote themselves; empty when nothing. */
    static Optional<String> check(MariaDbCluster cluster) throws SQLException {
        List<String> wrong = new ArrayList<>();
        for (MariaDbServer replica : cluster.replicas()) {
            List<String> own = ownEvents(replica);
            if (!own.isEmpty()) {
                wrong.add(replica.name() + " (server_id " + replica.serverId() + ") logged statements of its own: " + own);
            }
        }
        try {
            cluster.awaitReplicaCatchUp(Duration.ofSeconds(30));
        } catch (MariaDbException e) {
            wrong.add(e.getMessage());
        }
        return wrong.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", wrong));
    }

    private static List<String> ownEvents(MariaDbServer replica) throws SQLException {
        List<String> own = new ArrayList<>();
        try (Connection admin = replica.openAdmin(); Statement s = admin.createStatement()) {
            List<String> logs = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SHOW BINARY LOGS")) {
                while (rs.next()) {
                    logs.add(rs.getString(1));
                }
            }
            for (String log : logs) {
                try (ResultSet rs = s.executeQuery("SHOW BINLOG EVENTS IN '" + log + "'")) {
                    while (rs.next()) {
                        if (rs.getLong("Server_id") == replica.serverId() && !isHousekeeping(rs.getString("Event_type"))) {
                            own.add(rs.getString("Event_type") + " " + rs.getString("Info"));
                        }
                    }
                }
            }
        }
        return own;
    }

    /** Events every server writes to its own binlog: the file's header, rotation, the GTID lists. */
    private static boolean isHousekeeping(String type) {
        return switch (type) {
            case "Format_desc", "Rotate", "Gtid_list", "Binlog_checkpoint", "Start_encryption", "Stop" -> true;
            default -> false;
        };
    }
}
