package dev.sluice.slap;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A Connector/J connection sending text-protocol COM_QUERY, reading every row of every result as
 * mysqlslap does (mysql_store_result, then fetch until the end, for each of multiple results):
 * statements go through {@link ProtocolQuery}, the few values slap reads back through JDBC.
 */
final class JdbcSession implements SqlSession {

    private final Connection connection;
    private final ProtocolQuery query;
    private final PrintWriter echo;
    /** Only for {@link #column}: made on first use, so that clients connect and close without one. */
    private java.sql.Statement statement;

    /** {@code echo}: where {@code -vvv} prints each statement, or null. */
    JdbcSession(Connection connection, PrintWriter echo) throws SQLException {
        this.connection = connection;
        this.query = new ProtocolQuery(connection);
        this.echo = echo;
    }

    @Override
    public void execute(String sql) throws SQLException {
        execute(sql, null);
    }

    @Override
    public void execute(String sql, byte[] utf8) throws SQLException {
        if (echo != null) {
            echo.print(sql + ";\n");
            echo.flush();
        }
        query.run(sql, utf8);
    }

    /**
     * A USE statement rather than Connection.setCatalog: Connector/J keeps the schema locally and
     * would skip re-selecting a schema it thinks is current although DROP SCHEMA has unset it.
     */
    @Override
    public void useSchema(String schema) throws SQLException {
        execute("USE `" + schema.replace("`", "``") + "`");
    }

    @Override
    public List<String> column(String sql, int column) throws SQLException {
        if (echo != null) {
            echo.print(sql + ";\n");
            echo.flush();
        }
        if (statement == null) {
            statement = connection.createStatement();
            // mysqlslap sends the text as it is; JDBC escapes such as {fn ...} are not rewritten.
            statement.setEscapeProcessing(false);
        }
        List<String> values = new ArrayList<>();
        try (ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                values.add(rows.getString(column));
            }
        }
        return values;
    }

    Connection connection() {
        return connection;
    }

    boolean isClosed() {
        try {
            return connection.isClosed();
        } catch (SQLException e) {
            return true;
        }
    }

    /** From another thread: drops the connection at once, failing whatever read waits on it. */
    void abort() {
        try {
            connection.abort(Runnable::run);
        } catch (SQLException e) {
            // Already closed: the read it was meant to end has ended.
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            // Closing a connection the server already dropped: nothing left to release.
        }
    }
}
