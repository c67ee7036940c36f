package dev.sluice.proxy.differential;

import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Watches every server's processlist as the admin user, so a KILL is sent only once the statement
 * to kill runs (a KILL QUERY that arrives first would find nothing to kill, and the run would
 * depend on timing).
 */
final class ProcessList implements AutoCloseable {

    private final List<Connection> admins = new ArrayList<>();

    ProcessList(MariaDbCluster cluster) throws SQLException {
        for (MariaDbServer server : cluster.servers()) {
            admins.add(server.openAdmin());
        }
    }

    /** Whether a statement with exactly this text runs on some server within {@code timeoutMillis}. */
    boolean awaitRunning(String sql, long timeoutMillis) throws SQLException {
        try {
            Awaitility.await().atMost(Duration.ofMillis(timeoutMillis)).pollInterval(Duration.ofMillis(20))
                    .until(() -> running(sql));
            return true;
        } catch (ConditionTimeoutException notRunning) {
            return false;
        }
    }

    private synchronized boolean running(String sql) throws SQLException {
        for (Connection admin : admins) {
            try (PreparedStatement ps = admin.prepareStatement(
                    "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO = ?")) {
                ps.setString(1, sql);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (rs.getInt(1) > 0) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    @Override
    public synchronized void close() throws SQLException {
        for (Connection admin : admins) {
            admin.close();
        }
    }
}
