package dev.sluice.proxy.sql;

/**
 * Why a statement ties the session to the backend connection it runs on. Each reason has a
 * {@link Role}: it leaves state behind that later statements may need (CREATES), removes such
 * state (RELEASES), needs state an earlier statement left on the connection (READS), or runs
 * code the classifier cannot see into (UNKNOWN). A statement with any effect is never
 * {@link Classification#readOnly() read-only}.
 *
 * <p>Not reported, because the proxy sees them elsewhere: the last insert id that every INSERT
 * leaves behind (the OK packet carries it), open transactions (status flags), server-side cursors
 * (COM_STMT_EXECUTE flags). A plain DROP TABLE that happens to drop a temporary table is not
 * reported as TEMPORARY_TABLE_DROP.
 */
public enum SessionEffect {
    /** CREATE [OR REPLACE] TEMPORARY TABLE (or MariaDB TEMPORARY SEQUENCE). */
    TEMPORARY_TABLE_CREATE(Role.CREATES),
    /** DROP TEMPORARY TABLE. */
    TEMPORARY_TABLE_DROP(Role.RELEASES),
    /** GET_LOCK(), and MySQL's locking service service_get_read_locks / service_get_write_locks. */
    USER_LOCK_ACQUIRE(Role.CREATES),
    /** RELEASE_LOCK(), RELEASE_ALL_LOCKS(), service_release_locks(). */
    USER_LOCK_RELEASE(Role.RELEASES),
    /**
     * LOCK TABLES, LOCK INSTANCE FOR BACKUP, FLUSH TABLES ... WITH READ LOCK / FOR EXPORT,
     * MariaDB BACKUP STAGE (other than END) and BACKUP LOCK.
     */
    TABLE_LOCK(Role.CREATES),
    /** UNLOCK TABLES, UNLOCK INSTANCE, BACKUP STAGE END, BACKUP UNLOCK. */
    TABLE_UNLOCK(Role.RELEASES),
    /**
     * A user variable is assigned: {@code SET @x}, {@code @x := ...}, {@code SELECT ... INTO @x},
     * {@code EXPLAIN ... INTO @x}, the column list of LOAD DATA, or any user variable inside a
     * stored program definition.
     */
    USER_VARIABLE_WRITE(Role.CREATES),
    /** A user variable is read: its value lives on the connection where it was set. */
    USER_VARIABLE_READ(Role.READS),
    /** SELECT SQL_CALC_FOUND_ROWS: leaves a count for a later FOUND_ROWS(). */
    FOUND_ROWS_CALC(Role.CREATES),
    /** FOUND_ROWS(): needs the connection that ran the previous SELECT. */
    FOUND_ROWS_READ(Role.READS),
    /** LAST_INSERT_ID(expr): sets the value later LAST_INSERT_ID() calls return. */
    LAST_INSERT_ID_SET(Role.CREATES),
    /** LAST_INSERT_ID(), @@last_insert_id, @@identity, @@insert_id. */
    LAST_INSERT_ID_READ(Role.READS),
    /** ROW_COUNT(): needs the connection that ran the previous statement. */
    ROW_COUNT_READ(Role.READS),
    /**
     * SHOW WARNINGS, SHOW ERRORS, SHOW COUNT(*) WARNINGS/ERRORS, SHOW PROFILE(S),
     * GET DIAGNOSTICS, @@warning_count, @@error_count: they describe the previous statement on
     * the same connection.
     */
    DIAGNOSTICS_READ(Role.READS),
    /** CONNECTION_ID(): the answer names one backend connection. */
    CONNECTION_ID_READ(Role.READS),
    /** NEXTVAL(s), NEXT VALUE FOR s: also sets what LASTVAL(s) returns in this session. */
    SEQUENCE_NEXT(Role.CREATES),
    /** LASTVAL(s), PREVIOUS VALUE FOR s. */
    SEQUENCE_LAST_READ(Role.READS),
    /** SQL-level PREPARE. */
    SQL_PREPARE(Role.CREATES),
    /** SQL-level EXECUTE of a statement prepared with PREPARE. */
    SQL_EXECUTE(Role.READS),
    /** DEALLOCATE PREPARE, DROP PREPARE. */
    SQL_DEALLOCATE(Role.RELEASES),
    /** HANDLER t OPEN. */
    HANDLER_OPEN(Role.CREATES),
    /** HANDLER t READ. */
    HANDLER_READ(Role.READS),
    /** HANDLER t CLOSE. */
    HANDLER_CLOSE(Role.RELEASES),
    /** XA START / XA BEGIN. */
    XA_BEGIN(Role.CREATES),
    /** XA END, XA PREPARE. */
    XA_CONTINUE(Role.READS),
    /** XA COMMIT, XA ROLLBACK. */
    XA_FINISH(Role.RELEASES),
    /**
     * A SET the proxy cannot replay on another connection: SET TRANSACTION without a scope
     * (only the next transaction), the one-shot or connection-bound variables insert_id,
     * last_insert_id, identity, rand_seed1, rand_seed2, gtid_next, gtid_seq_no,
     * pseudo_thread_id, and any SET the parser could not follow.
     */
    UNREPLAYABLE_VARIABLE(Role.CREATES),
    /** SET ROLE: the active roles (replayable verbatim from the SET assignment). */
    ROLE_SET(Role.CREATES),
    /**
     * Code the classifier cannot see into: CALL, an anonymous block (BEGIN NOT ATOMIC, or a
     * MariaDB IF/CASE/LOOP/REPEAT/WHILE statement), EXECUTE IMMEDIATE, or a call of a function
     * that is not a known built-in (a stored function may write, set variables, take locks).
     */
    OPAQUE_PROGRAM(Role.UNKNOWN),
    /** COMMIT RELEASE / ROLLBACK RELEASE: the server closes the connection afterwards. */
    CONNECTION_CLOSE(Role.RELEASES);

    /** How an effect relates to state left on the connection. */
    public enum Role {
        CREATES,
        RELEASES,
        READS,
        UNKNOWN
    }

    /** The effects whose role is {@link Role#READS}, as a mask of {@code 1L << ordinal()}. */
    static final long READS_MASK = readsMask();

    private final Role role;

    private static long readsMask() {
        long mask = 0;
        for (SessionEffect effect : values()) {
            if (effect.role == Role.READS) {
                mask |= 1L << effect.ordinal();
            }
        }
        return mask;
    }

    SessionEffect(Role role) {
        this.role = role;
    }

    public Role role() {
        return role;
    }
}
