package dev.sluice.slap;

import java.sql.SQLException;
import java.util.List;

/**
 * What mysqlslap's single setup connection does around each timed phase: drop and create the
 * schema, run the create list, load the primary keys, run the pre- and post-queries. Every
 * failure stops the run with mysqlslap's message and exit status 1.
 */
final class SchemaSetup {

    /** mysqlslap's stand-in key when it cannot read real ones (--only-print, blackhole). */
    static final String PLACEHOLDER_KEY = "796c4422-1d94-102a-9d6d-00e0812d";

    private final SqlSession session;
    private final String schema;
    private final boolean onlyPrint;

    SchemaSetup(SqlSession session, String schema, boolean onlyPrint) {
        this.session = session;
        this.schema = schema;
        this.onlyPrint = onlyPrint;
    }

    void dropSchema() {
        try {
            session.execute("DROP SCHEMA IF EXISTS `" + schema + "`");
        } catch (SQLException e) {
            throw new SlapException("Cannot drop database '" + schema + "' ERROR : " + e.getMessage(), 1, e);
        }
    }

    void createSchema(List<Statement> statements, EngineSpec engine) {
        try {
            session.execute("CREATE SCHEMA `" + schema + "`");
        } catch (SQLException e) {
            throw new SlapException("Cannot create schema " + schema + " : " + e.getMessage(), 1, e);
        }
        try {
            session.useSchema(schema);
        } catch (SQLException e) {
            throw new SlapException("Cannot select schema '" + schema + "': " + e.getMessage(), 1, e);
        }
        for (Statement statement : statements) {
            String sql = statement.kind() == Statement.Kind.CREATE_TABLE && engine != null
                    ? statement.sql() + engine.tableSuffix() : statement.sql();
            run(sql, statement.sql());
        }
    }

    /** The ids keyed statements pick from, as mysqlslap's generate_primary_key_list reads them. */
    List<String> primaryKeys(EngineSpec engine) {
        if (onlyPrint || (engine != null && engine.name().contains("blackhole"))) {
            return List.of(PLACEHOLDER_KEY);
        }
        try {
            return session.column("SELECT id from t1", 1);
        } catch (SQLException e) {
            throw new SlapException("Cannot select GUID primary keys. (" + e.getMessage() + ")", 1, e);
        }
    }

    void runAll(List<Statement> statements) {
        for (Statement statement : statements) {
            run(statement.sql(), statement.sql());
        }
    }

    void run(String sql) {
        run(sql, sql);
    }

    private void run(String sql, String shown) {
        try {
            session.execute(sql);
        } catch (SQLException e) {
            throw new SlapException("Cannot run query " + shown + " ERROR : " + e.getMessage(), 1, e);
        }
    }
}
