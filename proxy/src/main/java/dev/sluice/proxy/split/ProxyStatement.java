package dev.sluice.proxy.split;

import dev.sluice.proxy.backend.TrackedConnection;
import java.util.HashMap;
import java.util.Map;

/**
 * A prepared statement as the client sees it: the proxy's own id, its SQL (to prepare it again on
 * any backend connection), and where it is prepared now, under which backend id.
 */
final class ProxyStatement {

    final long id;
    final byte[] sql;
    /**
     * The schema it was prepared in, or null: the server runs a prepared statement there whatever
     * USE came later, so a connection preparing it again must be there too.
     */
    final String schema;
    final RoutedStatement route;
    final int params;
    final int columns;
    /** The parameter types of the last execute that bound them (2 bytes each), or null. */
    byte[] types;
    private final Map<TrackedConnection, Long> backendIds = new HashMap<>();
    /** Connections that have been sent this statement's types since it was prepared there. */
    private final Map<TrackedConnection, Boolean> typesSent = new HashMap<>();

    ProxyStatement(long id, byte[] sql, String schema, RoutedStatement route, int params, int columns) {
        this.id = id;
        this.sql = sql;
        this.schema = schema;
        this.route = route;
        this.params = params;
        this.columns = columns;
    }

    Long backendId(TrackedConnection connection) {
        return backendIds.get(connection);
    }

    boolean typesSent(TrackedConnection connection) {
        return typesSent.getOrDefault(connection, false);
    }

    void typesSent(TrackedConnection connection, boolean sent) {
        typesSent.put(connection, sent);
    }

    void preparedOn(TrackedConnection connection, long backendId) {
        backendIds.put(connection, backendId);
        typesSent.put(connection, false);
    }

    void forget(TrackedConnection connection) {
        backendIds.remove(connection);
        typesSent.remove(connection);
    }

    Map<TrackedConnection, Long> backendIds() {
        return backendIds;
    }
}
