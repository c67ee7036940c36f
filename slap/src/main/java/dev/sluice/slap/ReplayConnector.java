package dev.sluice.slap;

import com.mysql.cj.CharsetMapping;
import com.mysql.cj.jdbc.NonRegisteringDriver;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * Connector/J connections for a replay: prepared statements become server-side prepared
 * statements (COM_STMT_PREPARE, EXECUTE, CLOSE, one each, as captured), never emulated or cached;
 * no round trips of the driver's own beyond the first connect (as in {@link Connector}); and
 * nothing the driver would change of the server's session defaults (its sql_mode above all: a
 * comparison of two servers' settings must see them as they are).
 *
 * <p>Each captured session opens as it was, as far as the capture says: as its user (through
 * {@link UserMap}), in its schema and with the collation its login asked for, and with the session
 * variables it had set before its first captured statement. What cannot be reproduced is noted.
 */
final class ReplayConnector {

    private static final int SOCKET_TIMEOUT_MILLIS = 300_000;
    /** Set by the connection's collation: assigning them would change what Connector/J decodes. */
    private static final Set<String> CHARACTER_SET_VARIABLES = Set.of("character_set_client", "character_set_results",
            "character_set_connection", "collation_connection");

    private final NonRegisteringDriver driver;
    private final Properties properties = new Properties();
    private final String url;
    private final ConnectionOptions options;
    private final UserMap users;

    ReplayConnector(ConnectionOptions options, boolean multiStatements, UserMap users) {
        try {
            this.driver = new NonRegisteringDriver();
        } catch (SQLException e) {
            throw new SlapException("Cannot load Connector/J: " + e.getMessage(), 1, e);
        }
        this.options = options;
        this.users = users;
        properties.putAll(Connector.common(options, multiStatements, "slap-replay",
                options.characterSet() == null ? "utf8mb4" : options.characterSet()));
        properties.setProperty("useServerPrepStmts", "true");
        properties.setProperty("cachePrepStmts", "false");
        properties.setProperty("emulateUnsupportedPstmts", "false");
        // Connector/J adds STRICT_TRANS_TABLES to a server's sql_mode that lacks it unless told not to.
        properties.setProperty("jdbcCompliantTruncation", "false");
        properties.setProperty("connectTimeout", "60000");
        properties.setProperty("socketTimeout", Integer.toString(SOCKET_TIMEOUT_MILLIS));
        properties.setProperty("allowLoadLocalInfile", "false");
        this.url = "jdbc:mysql://" + options.address() + "/";
    }

    String address() {
        return options.address();
    }

    /** A connection as the command line's user, with {@code schema} as its default (may be null). */
    Connection open(String schema) throws SQLException {
        Properties connect = new Properties();
        connect.putAll(properties);
        if (schema != null && !schema.isEmpty()) {
            connect.setProperty("dbname", schema);
        }
        return driver.connect(url, connect);
    }

    /** A connection for a captured session, opened as the session was; what differs goes to {@code notes}. */
    Connection open(ReplayPlan.Session session, ReplayNotes notes) throws SQLException {
        Properties connect = new Properties();
        connect.putAll(properties);
        if (session.schema != null && !session.schema.isEmpty()) {
            connect.setProperty("dbname", session.schema);
        }
        UserMap.Login login = users.login(session.user, options.user(), options.password());
        connect.setProperty("user", login.user() == null ? "" : login.user());
        if (login.password() != null) {
            connect.setProperty("password", login.password());
        } else {
            connect.remove("password");
        }
        if (session.user == null) {
            notes.add("ran as " + login.user() + ": the capture does not name the user (pass-through mode)");
        } else if (!login.mapped() && !session.user.equals(login.user())) {
            notes.add("ran as " + login.user() + ", not as the captured user (" + (users.isEmpty()
                    ? "no --user-map" : "not in --user-map") + ")");
        }
        CapturedSessionState state = session.state;
        if (state != null && state.collationId() >= 0) {
            collation(connect, state.collationId(), notes);
        }
        Connection connection = driver.connect(url, connect);
        if (state == null) {
            notes.add("opened with the servers' defaults: the capture does not say how the session was opened"
                    + " (captured before session_state)");
        } else if (!state.login() && state.variables() == null) {
            notes.add("began before the capture, in session mode: what it set before is not known; opened with the"
                    + " servers' defaults");
        } else if (state.variables() != null) {
            setVariables(connection, state.variables(), notes);
        }
        return connection;
    }

    /** Logs in with the captured collation, when Connector/J knows it and Java has its character set. */
    private static void collation(Properties connect, int id, ReplayNotes notes) {
        String name = CharsetMapping.getStaticCollationNameForCollationIndex(id);
        String java = CharsetMapping.getStaticJavaEncodingForCollationIndex(id);
        if (name == null || java == null) {
            notes.add("logged in with collation id " + id + ", which Connector/J does not know: opened in "
                    + connect.getProperty("characterEncoding", "utf8mb4"));
            return;
        }
        connect.setProperty("characterEncoding", java);
        connect.setProperty("characterSetResults", java);
        connect.setProperty("connectionCollation", name);
    }

    /**
     * {@code SET SESSION} of the variables the session had set, but those of the character set,
     * which the connection's collation gives. A refusal is noted, not fatal: the statements still run.
     */
    private static void setVariables(Connection connection, Map<String, String> variables, ReplayNotes notes) {
        StringBuilder sql = new StringBuilder();
        for (Map.Entry<String, String> v : new TreeMap<>(variables).entrySet()) {
            if (CHARACTER_SET_VARIABLES.contains(v.getKey())) {
                continue;
            }
            sql.append(sql.isEmpty() ? "SET SESSION " : ", ").append(v.getKey()).append(" = ")
                    .append(literal(v.getValue()));
        }
        if (sql.isEmpty()) {
            return;
        }
        try (Statement set = connection.createStatement()) {
            set.execute(sql.toString());
        } catch (SQLException e) {
            notes.add("its session variables could not be set (" + Connector.describe(e) + "): " + sql);
        }
    }

    /** Numbers bare (MariaDB refuses quoted values for numeric variables), other values quoted. */
    static String literal(String value) {
        if (value.matches("-?\\d+(\\.\\d+)?")) {
            return value;
        }
        return "'" + value.replace("\\", "\\\\").replace("'", "''") + "'";
    }
}
