package dev.sluice.proxy.split;

import dev.sluice.proxy.backend.TrackedConnection;
import dev.sluice.proxy.backend.OwnCommands;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The statements prepared on one backend connection, least recently used first, bounded so the
 * proxy never drives a server into max_prepared_stmt_count. Closing is deferred to the next time
 * the connection is used (COM_STMT_CLOSE gets no response, so it can precede any command).
 */
public final class ConnectionStatements implements TrackedConnection.Attachment {

    /** At most this many statements stay prepared on one connection. */
    private static final int MAX_PREPARED = 256;

    private final TrackedConnection connection;
    private final int limit;
    private final LinkedHashMap<ProxyStatement, Long> prepared = new LinkedHashMap<>(16, 0.75f, true);
    private final List<Long> toClose = new ArrayList<>();

    ConnectionStatements(TrackedConnection connection, int limit) {
        this.connection = connection;
        this.limit = limit;
    }

    /** The statements prepared on {@code connection}, kept on it from the first call. */
    static ConnectionStatements on(TrackedConnection connection) {
        if (connection.attachment() instanceof ConnectionStatements statements) {
            return statements;
        }
        ConnectionStatements statements = new ConnectionStatements(connection, MAX_PREPARED);
        connection.attach(statements);
        return statements;
    }

    public int size() {
        return prepared.size();
    }

    void touch(ProxyStatement statement) {
        prepared.get(statement);
    }

    /** Records a fresh prepare and retires the least recently used statements beyond the limit. */
    void add(ProxyStatement statement, long backendId) {
        prepared.put(statement, backendId);
        statement.preparedOn(connection, backendId);
        Iterator<Map.Entry<ProxyStatement, Long>> oldest = prepared.entrySet().iterator();
        while (prepared.size() > limit && oldest.hasNext()) {
            Map.Entry<ProxyStatement, Long> entry = oldest.next();
            entry.getKey().forget(connection);
            toClose.add(entry.getValue());
            oldest.remove();
        }
    }

    /** The client closed the statement: close it here too (later). */
    void close(ProxyStatement statement) {
        Long backendId = prepared.remove(statement);
        statement.forget(connection);
        if (backendId != null) {
            toClose.add(backendId);
        }
    }

    /** Writes the deferred COM_STMT_CLOSEs (no flush: the next command follows). */
    void flushCloses() {
        for (long id : toClose) {
            connection.write(OwnCommands.stmtClose(connection.channel().alloc(), id));
        }
        toClose.clear();
    }

    /** The connection is gone or was reset: its statements are prepared nowhere now. */
    @Override
    public void serverSessionEnded() {
        for (ProxyStatement statement : prepared.keySet()) {
            statement.forget(connection);
        }
        prepared.clear();
        toClose.clear();
    }
}
