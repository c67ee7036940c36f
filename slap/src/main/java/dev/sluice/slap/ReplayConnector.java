package dev.sluice.slap;

import com.mysql.cj.jdbc.NonRegisteringDriver;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Connector/J connections for a replay: prepared statements become server-side prepared
 * statements (COM_STMT_PREPARE, EXECUTE, CLOSE, one each, as captured), never emulated or cached;
 * no round trips of the driver's own beyond the first connect (as in {@link Connector}).
 */
final class ReplayConnector {

    private static final int SOCKET_TIMEOUT_MILLIS = 300_000;

    private final NonRegisteringDriver driver;
    private final Properties properties = new Properties();
    private final String url;

    ReplayConnector(ConnectionOptions options, boolean multiStatements) {
        try {
            this.driver = new NonRegisteringDriver();
        } catch (SQLException e) {
            throw new SlapException("Cannot load Connector/J: " + e.getMessage(), 1, e);
        }
        properties.putAll(Connector.common(options, multiStatements, "slap-replay",
                options.characterSet() == null ? "utf8mb4" : options.characterSet()));
        properties.setProperty("useServerPrepStmts", "true");
        properties.setProperty("cachePrepStmts", "false");
        properties.setProperty("emulateUnsupportedPstmts", "false");
        properties.setProperty("connectTimeout", "60000");
        properties.setProperty("socketTimeout", Integer.toString(SOCKET_TIMEOUT_MILLIS));
        properties.setProperty("allowLoadLocalInfile", "false");
        this.url = "jdbc:mysql://" + options.address() + "/";
    }

    /** A connection with {@code schema} as its default (may be null). */
    Connection open(String schema) throws SQLException {
        Properties connect = properties;
        if (schema != null && !schema.isEmpty()) {
            connect = new Properties();
            connect.putAll(properties);
            connect.setProperty("dbname", schema);
        }
        return driver.connect(url, connect);
    }
}
