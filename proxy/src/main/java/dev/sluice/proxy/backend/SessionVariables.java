package dev.sluice.proxy.backend;

import java.util.Collections;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Session state that can be moved from one backend connection to another: the default schema and
 * the session system variables that differ from the server's defaults (as the backends' session
 * tracking reported them). A client session has one (what the client believes); every backend
 * connection has one (what is really set there); before a statement runs on a connection, the
 * difference is replayed.
 */
public final class SessionVariables {

    /** Session tracking reports these, but they describe the server, not the session. */
    private static final java.util.Set<String> NOT_REPLAYABLE = java.util.Set.of(
            "last_gtid", "warning_count", "error_count", "identity", "insert_id", "last_insert_id",
            "timestamp", "rand_seed1", "rand_seed2", "pseudo_thread_id", "gtid_seq_no", "in_transaction",
            "session_track_system_variables", "session_track_schema", "session_track_state_change",
            "session_track_transaction_info", "session_track_gtids", "redirect_url", "server_id");

    /** What a login's character set sets, and SET NAMES. */
    private static final java.util.List<String> CHARACTER_SET_VARIABLES = java.util.List.of("character_set_client",
            "character_set_connection", "character_set_results", "collation_connection");

    /** A connection's LAST_INSERT_ID() that a statement may have changed unseen. */
    public static final long UNKNOWN_ID = -1;

    private String schema;
    private final Map<String, String> variables = new HashMap<>();
    /** LAST_INSERT_ID() here, or {@link #UNKNOWN_ID}; a login starts at 0. */
    private long lastInsertId;

    public SessionVariables(String schema) {
        this.schema = emptyToNull(schema);
    }

    public SessionVariables copy() {
        SessionVariables copy = new SessionVariables(schema);
        copy.variables.putAll(variables);
        copy.lastInsertId = lastInsertId;
        return copy;
    }

    public String schema() {
        return schema;
    }

    public void schema(String name) {
        this.schema = emptyToNull(name);
    }

    public Map<String, String> variables() {
        return Collections.unmodifiableMap(variables);
    }

    public String variable(String name) {
        return variables.get(name.toLowerCase(Locale.ROOT));
    }

    /** Whether a variable of this name is session state the proxy replays. */
    public static boolean replayable(String name) {
        return !NOT_REPLAYABLE.contains(name.toLowerCase(Locale.ROOT));
    }

    /** Records a tracked change; returns false for variables that are not session state. */
    public boolean set(String name, String value) {
        String key = name.toLowerCase(Locale.ROOT);
        if (NOT_REPLAYABLE.contains(key)) {
            return false;
        }
        variables.put(key, value);
        return true;
    }

    /** Takes the variables a login left a connection at as this session's starting point. */
    public void adoptLoginValues(SessionVariables loginValues) {
        variables.putAll(loginValues.variables);
    }

    /** The character set variables go back to the server's global values: the next replay sets them to DEFAULT. */
    public void characterSetsToGlobalValues() {
        CHARACTER_SET_VARIABLES.forEach(variables::remove);
    }

    /**
     * The statement of {@link #variablesStatementFrom} ran: this connection's variables are now
     * {@code desired}'s. Taken from the statement, not from the server's report of it: the server
     * reports a variable only when its value changed, so one it already had (under another
     * name, say a collation alias) would stay wrong here, and be set again before every statement.
     */
    public void variablesSetTo(SessionVariables desired) {
        variables.clear();
        variables.putAll(desired.variables);
    }

    /** Back to the server's defaults (COM_RESET_CONNECTION, COM_CHANGE_USER). */
    public void reset(String newSchema) {
        variables.clear();
        schema = emptyToNull(newSchema);
        lastInsertId = 0;
    }

    public long lastInsertId() {
        return lastInsertId;
    }

    public void lastInsertId(long value) {
        lastInsertId = value;
    }

    /**
     * The statement that turns {@code current}'s variables into this one's, or null when they match:
     * {@code SET SESSION a = 1, b = 'x', c = DEFAULT}. A variable set here and absent from
     * {@code current} is assigned; one set there and absent here goes back to DEFAULT.
     */
    public String variablesStatementFrom(SessionVariables current) {
        if (variables.equals(current.variables)) {
            // The common case, before every statement on a pooled connection: nothing to build.
            return null;
        }
        StringBuilder sql = new StringBuilder();
        for (String name : new TreeSet<>(union(current))) {
            String wanted = variables.get(name);
            String have = current.variables.get(name);
            if (Objects.equals(wanted, have)) {
                continue;
            }
            sql.append(sql.isEmpty() ? "SET SESSION " : ", ");
            sql.append(name).append(" = ").append(wanted == null ? "DEFAULT" : literal(name, wanted));
        }
        return sql.isEmpty() ? null : sql.toString();
    }

    public boolean sameVariables(SessionVariables other) {
        return variables.equals(other.variables);
    }

    private java.util.Set<String> union(SessionVariables other) {
        java.util.Set<String> names = new java.util.HashSet<>(variables.keySet());
        names.addAll(other.variables.keySet());
        return names;
    }

    /**
     * Numbers stay bare (MariaDB refuses quoted values for numeric variables); everything else is
     * quoted. An empty character_set_results is NULL ("send results as they are stored").
     */
    public static String literal(String name, String value) {
        if (value.isEmpty() && name.equals("character_set_results")) {
            return "NULL";
        }
        if (value.matches("-?\\d+(\\.\\d+)?")) {
            return value;
        }
        return "'" + value.replace("\\", "\\\\").replace("'", "''") + "'";
    }

    private static String emptyToNull(String schema) {
        return schema == null || schema.isEmpty() ? null : schema;
    }

    @Override
    public String toString() {
        return "SessionVariables[schema=" + schema + ", " + variables + "]";
    }
}
