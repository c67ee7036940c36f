package dev.sluice.proxy.sql;

/** What kind of statement a text is, from its leading keywords. */
public enum StatementKind {
    /** Nothing but whitespace, comments and semicolons (the server answers "Query was empty"). */
    EMPTY,
    /** SELECT, a parenthesised SELECT, WITH ... SELECT, MySQL's TABLE t and VALUES ROW(...). */
    SELECT,
    SHOW,
    /** EXPLAIN, DESCRIBE, DESC, EXPLAIN ANALYZE and MariaDB's ANALYZE statement. */
    EXPLAIN,
    /** SET of variables, NAMES, CHARACTER SET, TRANSACTION, ROLE (not SET PASSWORD). */
    SET,
    USE,
    /** BEGIN [WORK] and START TRANSACTION. */
    BEGIN,
    COMMIT,
    ROLLBACK,
    /** ROLLBACK [WORK] TO [SAVEPOINT] x, which keeps the transaction open. */
    ROLLBACK_TO_SAVEPOINT,
    SAVEPOINT,
    RELEASE_SAVEPOINT,
    INSERT,
    UPDATE,
    DELETE,
    REPLACE,
    /** LOAD DATA and LOAD XML. */
    LOAD,
    /** CREATE, ALTER, DROP, RENAME, TRUNCATE of schema objects. */
    DDL,
    /** CREATE/ALTER/DROP/RENAME USER, CREATE/DROP ROLE, GRANT, REVOKE, SET PASSWORD, SET DEFAULT ROLE. */
    ACCOUNT,
    CALL,
    DO,
    HANDLER,
    /** LOCK TABLE(S), LOCK INSTANCE FOR BACKUP. */
    LOCK_TABLES,
    /** UNLOCK TABLE(S), UNLOCK INSTANCE. */
    UNLOCK_TABLES,
    /** SQL-level PREPARE. */
    PREPARE,
    /** SQL-level EXECUTE, and MariaDB's EXECUTE IMMEDIATE. */
    EXECUTE,
    /** DEALLOCATE PREPARE and DROP PREPARE. */
    DEALLOCATE,
    XA,
    FLUSH,
    KILL,
    /**
     * Server administration: ANALYZE/CHECK/CHECKSUM/OPTIMIZE/REPAIR TABLE, INSTALL, UNINSTALL,
     * RESET, PURGE, CHANGE MASTER/REPLICATION, START/STOP SLAVE/REPLICA, CACHE INDEX,
     * LOAD INDEX, SHUTDOWN, RESTART, BINLOG, CLONE, IMPORT TABLE, MariaDB's BACKUP.
     */
    ADMIN,
    /** More than one statement in one text; see {@link Classification#statements()}. */
    MULTI,
    /** Anything else, including text the classifier does not recognise. */
    OTHER
}
