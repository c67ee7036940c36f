package dev.sluice.proxy.sql;

/**
 * What a statement does to the transaction. Every BEGIN variant also commits a transaction that
 * is open. This is what the text says; the server's SERVER_STATUS_IN_TRANS flag stays the truth.
 */
public enum TransactionEffect {
    NONE,
    /** BEGIN, START TRANSACTION, XA START. */
    BEGIN,
    /** START TRANSACTION READ ONLY. */
    BEGIN_READ_ONLY,
    /** START TRANSACTION READ WRITE. */
    BEGIN_READ_WRITE,
    /** COMMIT, XA COMMIT. */
    COMMIT,
    /** COMMIT AND CHAIN: commits and at once begins a transaction with the same characteristics. */
    COMMIT_AND_CHAIN,
    /** ROLLBACK, XA ROLLBACK. */
    ROLLBACK,
    ROLLBACK_AND_CHAIN,
    /**
     * The statement commits an open transaction as a side effect: DDL except CREATE/DROP
     * TEMPORARY TABLE; account statements; LOCK TABLES and UNLOCK TABLES; FLUSH; ANALYZE, CHECK,
     * OPTIMIZE, REPAIR TABLE; CACHE INDEX, LOAD INDEX; RESET (not RESET PERSIST); INSTALL,
     * UNINSTALL; START/STOP SLAVE/REPLICA; CHANGE MASTER/REPLICATION; IMPORT TABLE;
     * SET autocommit = 1 (ON, TRUE).
     */
    IMPLICIT_COMMIT
}
