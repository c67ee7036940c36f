package dev.sluice.testkit;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.IntSupplier;

/**
 * One long-lived admin connection per server for status and replication helpers, opened on first
 * use and again after the server restarted. Reusing it keeps helper calls from adding to
 * Connections, and Connector/J's start-up SELECT from adding to Com_select, on every call.
 */
final class AdminConnection {

    private static final int CONNECT_TIMEOUT_MS = 10_000;
    private static final int VALID_CHECK_SECONDS = 2;
    /** Connector/J's driver directly, so a MariaDB driver elsewhere on the classpath cannot claim the URL. */
    private static final Driver DRIVER = newDriver();

    private final String serverName;
    private final IntSupplier port;
    private Connection connection; // guarded by this

    AdminConnection(String serverName, IntSupplier port) {
        this.serverName = serverName;
        this.port = port;
    }

    /** A new admin connection over TCP, without TLS: loopback only, and cheaper for short helpers. */
    static Connection open(int port) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", TestUsers.ADMIN_USER);
        properties.setProperty("password", TestUsers.ADMIN_PASSWORD);
        properties.setProperty("sslMode", "DISABLED");
        properties.setProperty("connectTimeout", String.valueOf(CONNECT_TIMEOUT_MS));
        return DRIVER.connect("jdbc:mysql://" + MariaDbServer.HOST + ":" + port + "/", properties);
    }

    /** Runs statements in order; {@code context} names the caller in the error. */
    synchronized void execute(String context, String... statements) {
        String current = null;
        try (Statement statement = connection().createStatement()) {
            for (String sql : statements) {
                current = sql;
                statement.execute(sql);
            }
        } catch (SQLException e) {
            throw failure(context + ": " + current, e);
        }
    }

    /** The Value column of the first row of a SHOW ... LIKE, or null when there is no row. */
    synchronized String showValue(String sql) {
        try (Statement statement = connection().createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getString(2) : null;
        } catch (SQLException e) {
            throw failure(sql, e);
        }
    }

    /** Every row of a SHOW statement as column label to value (null stays null). */
    synchronized List<Map<String, String>> showRows(String sql) {
        try (Statement statement = connection().createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            ResultSetMetaData meta = rows.getMetaData();
            List<Map<String, String>> result = new ArrayList<>();
            while (rows.next()) {
                Map<String, String> row = new LinkedHashMap<>();
                for (int column = 1; column <= meta.getColumnCount(); column++) {
                    row.put(meta.getColumnLabel(column), rows.getString(column));
                }
                result.add(row);
            }
            return result;
        } catch (SQLException e) {
            throw failure(sql, e);
        }
    }

    synchronized Map<String, Long> numericStatus() {
        Map<String, Long> status = new LinkedHashMap<>();
        for (Map<String, String> row : showRows("SHOW GLOBAL STATUS")) {
            String value = row.get("Value");
            if (value != null && value.matches("-?[0-9]{1,18}")) {
                status.put(row.get("Variable_name"), Long.parseLong(value));
            }
        }
        return status;
    }

    /** Drops the connection; the next helper call opens a new one. */
    synchronized void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // The server may be gone already (kill, stop); the socket is closed either way.
            }
            connection = null;
        }
    }

    private Connection connection() throws SQLException {
        if (connection == null || !connection.isValid(VALID_CHECK_SECONDS)) {
            close();
            connection = open(port.getAsInt());
        }
        return connection;
    }

    private MariaDbException failure(String what, SQLException e) {
        close();
        return new MariaDbException(serverName + ": " + what + " failed: " + e.getMessage(), e);
    }

    private static Driver newDriver() {
        try {
            return new com.mysql.cj.jdbc.Driver();
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
