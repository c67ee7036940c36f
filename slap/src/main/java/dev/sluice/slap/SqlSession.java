package dev.sluice.slap;

import java.sql.SQLException;
import java.util.List;

/** Where statements go: a server connection, or stdout for {@code --only-print}. */
interface SqlSession extends AutoCloseable {

    /** Sends one statement and reads every result it returns. */
    void execute(String sql) throws SQLException;

    /** {@link #execute(String)} where {@code utf8} is {@code sql} already encoded in UTF-8. */
    default void execute(String sql, byte[] utf8) throws SQLException {
        execute(sql);
    }

    /** Makes {@code schema} the default schema (COM_INIT_DB, or {@code use schema;} when printing). */
    void useSchema(String schema) throws SQLException;

    /** Column {@code column} (from 1) of every row {@code sql} returns. */
    List<String> column(String sql, int column) throws SQLException;

    @Override
    void close();
}
