package dev.sluice.proxy.sql;

/** Where a SET assignment lands. */
public enum SetScope {
    /** The session: SET x, SET SESSION x, SET LOCAL x, SET @@x, SET @@session.x, SET NAMES. */
    SESSION,
    GLOBAL,
    /** MySQL's SET PERSIST. */
    PERSIST,
    /** MySQL's SET PERSIST_ONLY. */
    PERSIST_ONLY,
    /** A user variable: SET @x. */
    USER,
    /** SET TRANSACTION ... without a scope word: only the next transaction. */
    NEXT_TRANSACTION
}
