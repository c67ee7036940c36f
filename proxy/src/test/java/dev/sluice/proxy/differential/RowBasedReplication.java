package dev.sluice.proxy.differential;

import dev.sluice.testkit.MariaDbServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Row-based replication on the primary while a test runs, its old format back after. In MIXED
 * format a temporary table is replicated as statements, and MariaDB 11.4 does not log the implicit
 * DROP when a session that created one with autocommit off is reset (COM_RESET_CONNECTION, which
 * the proxy also sends to a backend connection going back to its pool): the replica keeps the
 * table, and a later statement of that thread id that names it stops the replica's SQL thread
 * ("Unknown column 'd'", "Table 'diff_tmp' already exists"), which breaks the shared cluster for
 * every test after. In ROW format no temporary table is replicated. Sessions take the global
 * format when they connect, so this must come before the proxies open their pools.
 */
final class RowBasedReplication implements AutoCloseable {

    private final MariaDbServer primary;
    private final String old;

    RowBasedReplication(MariaDbServer primary) throws SQLException {
        this.primary = primary;
        try (Connection admin = primary.openAdmin(); Statement s = admin.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT @@GLOBAL.binlog_format")) {
                rs.next();
                old = rs.getString(1);
            }
            s.execute("SET GLOBAL binlog_format = 'ROW'");
        }
    }

    @Override
    public void close() throws SQLException {
        try (Connection admin = primary.openAdmin(); Statement s = admin.createStatement()) {
            s.execute("SET GLOBAL binlog_format = '" + old + "'");
        }
    }
}
