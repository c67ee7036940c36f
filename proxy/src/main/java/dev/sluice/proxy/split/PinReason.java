package dev.sluice.proxy.split;

/**
 * Why a session stays on its backend connection instead of going back to the pool: state that
 * lives on that connection and cannot be replayed elsewhere. Counted per reason in the stats.
 */
public enum PinReason {
    TEMPORARY_TABLE,
    USER_LOCK,
    LOCK_TABLES,
    USER_VARIABLE,
    OPEN_CURSOR,
    FOUND_ROWS,
    LAST_INSERT_ID,
    SQL_PREPARED_STATEMENT,
    LONG_DATA,
    XA_TRANSACTION,
    HANDLER,
    SET_OPTION,
    SEQUENCE,
    ROLE,
    UNREPLAYABLE_VARIABLE,
    UNTRACKED_STATE,
    /**
     * DROP DATABASE of the current schema left the connection with none, which no statement can
     * give another connection (USE needs a name): the session stays until it selects one.
     */
    NO_SCHEMA;

    /** As shown in stats: lower case with underscores, e.g. temporary_table. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
