package dev.sluice.proxy.split;

import dev.sluice.proxy.sql.InsertLiterals;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What routing needs to know about one statement, derived from the SQL classifier.
 *
 * @param target        where it may run
 * @param pins          state it creates that ties the session to its connection
 * @param releases      pinned state it removes (UNLOCK TABLES, RELEASE_ALL_LOCKS)
 * @param readOnlyTransaction it starts a transaction that may run on a replica (START TRANSACTION READ ONLY)
 * @param keepForNext   it leaves something the next statement may ask for on its connection
 *                      (SQL_CALC_FOUND_ROWS)
 * @param write         it may write (reading what the session left on its connection is no
 *                      write): it must not run on a replica, and after it read-your-writes applies
 * @param readsLastConnection it reads what the previous statement left on its connection
 *                      (LAST_INSERT_ID(), FOUND_ROWS(), SHOW WARNINGS, ROW_COUNT()...)
 * @param effectsInText a SET or USE: what it changes is in its text and the server reports it
 * @param changesRows   INSERT, UPDATE, DELETE, REPLACE or LOAD: refused in a READ ONLY transaction
 * @param readsLastInsertId it calls LAST_INSERT_ID(), which is the session's, not the connection's
 * @param callsProcedure a CALL: its writes' GTIDs may not be reported in the OK after it
 * @param scopedVariables SET STATEMENT ... FOR: the variables it sets (the server reports them
 *                      changed, yet they are back as they were after it); null for other statements
 * @param commitsFirst  it commits the open transaction before it runs (DDL, LOCK TABLES, BEGIN...)
 * @param sessionVariablesSet the session system variables a SET assigns (lower case), to read back
 *                      those the server does not report
 * @param keepsDiagnostics SHOW WARNINGS, SHOW ERRORS, and reads that name no table: they leave
 *                      the last statement's diagnostics in place for the next statement to ask
 *                      (unless they raise their own)
 * @param multiStatement several statements in one text: some may have run before one fails
 * @param savepoint     SAVEPOINT, RELEASE SAVEPOINT, ROLLBACK TO SAVEPOINT
 * @param needsPrimaryTransaction in a READ ONLY transaction on a replica it cannot run there as
 *                      on the primary (it may write, or makes state that outlives the transaction)
 * @param readsDiagnostics SHOW WARNINGS, SHOW ERRORS, @@warning_count, @@error_count, GET
 *                      DIAGNOSTICS: on a connection the session did not leave them on, what it reads
 *                      would be another session's
 * @param tableFree     a SELECT or SET that names no table: the server leaves the diagnostics area
 *                      as it found it unless the statement raises conditions of its own
 * @param insertLiterals an INSERT or REPLACE of literal rows: the values it could give an
 *                      AUTO_INCREMENT column itself (an id reported beyond them was generated);
 *                      null for other statements
 */
public record RoutedStatement(Target target, Set<PinReason> pins, Set<PinReason> releases,
                              boolean readOnlyTransaction, boolean keepForNext, boolean write,
                              boolean readsLastConnection, boolean effectsInText, boolean changesRows,
                              boolean readsLastInsertId, boolean callsProcedure,
                              List<String> scopedVariables, boolean commitsFirst, List<String> sessionVariablesSet,
                              boolean keepsDiagnostics, boolean multiStatement, boolean savepoint,
                              boolean needsPrimaryTransaction, boolean readsDiagnostics, boolean tableFree,
                              InsertLiterals insertLiterals) {

    /** Not a read the classifier could prove: counts as a write for read-your-writes. */
    public static final RoutedStatement PRIMARY = new RoutedStatement(Target.PRIMARY, Set.of(), Set.of(), false, false,
            true, false, false, false, false, false, null, false, List.of(), false, false, false, false, false, false, null);

    /**
     * This statement, sent to the primary: where a cursor it opens may stay open while the session
     * writes (a cursor on a replica would tie the session there, where a write cannot run).
     */
    public RoutedStatement onPrimary() {
        return target == Target.PRIMARY ? this : new RoutedStatement(Target.PRIMARY, pins, releases, readOnlyTransaction,
                keepForNext, write, readsLastConnection, effectsInText, changesRows, readsLastInsertId, callsProcedure,
                scopedVariables, commitsFirst, sessionVariablesSet, keepsDiagnostics, multiStatement, savepoint,
                needsPrimaryTransaction, readsDiagnostics, tableFree, insertLiterals);
    }

    /** This statement, with the literals {@link InsertLiterals#read} found in its text. */
    RoutedStatement withInsertLiterals(InsertLiterals literals) {
        return literals == null ? this : new RoutedStatement(target, pins, releases, readOnlyTransaction, keepForNext,
                write, readsLastConnection, effectsInText, changesRows, readsLastInsertId, callsProcedure,
                scopedVariables, commitsFirst, sessionVariablesSet, keepsDiagnostics, multiStatement, savepoint,
                needsPrimaryTransaction, readsDiagnostics, tableFree, literals);
    }

    public RoutedStatement {
        pins = pins.isEmpty() ? Set.of() : EnumSet.copyOf(pins);
        releases = releases.isEmpty() ? Set.of() : EnumSet.copyOf(releases);
        sessionVariablesSet = List.copyOf(sessionVariablesSet);
    }
}
