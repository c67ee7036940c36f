package dev.sluice.proxy.sql;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What {@link StatementClassifier} found in one COM_QUERY text. Immutable.
 *
 * @param kind the statement's kind; MULTI when the text holds more than one statement
 * @param readOnly true only when the text is provably read-only and may run on a replica: one
 *     SELECT without locking clause, INTO, write keyword, session effect or call of a function
 *     that is not a known side-effect-free built-in; a SHOW other than the diagnostics ones;
 *     DESCRIBE of a table or EXPLAIN [ANALYZE] of such a SELECT; START TRANSACTION READ ONLY.
 *     Never for multi-statements or for text with an unterminated string, identifier or comment
 * @param noWrites true when {@code readOnly} is, and also when the only reason it is not is that the
 *     statement reads what the session left on its connection (user variables, FOUND_ROWS(),
 *     warnings, LAST_INSERT_ID()): nothing in it writes, so it may run on the replica
 *     connection a read left those on
 * @param hint the routing hint written in a comment, independent of {@code readOnly}
 * @param sessionEffects why the statement ties the session to its backend connection
 * @param setAssignments the assignments of a SET statement, in order
 * @param useSchema the schema of a USE statement, unquoted; null for other statements
 * @param transactionEffect what the statement does to the transaction
 * @param consistentSnapshot START TRANSACTION ... WITH CONSISTENT SNAPSHOT
 * @param scopedVariables MariaDB's SET STATEMENT var = value FOR statement: the variables it sets for
 *     that statement only (lower case), though the server reports them changed, and their return
 *     in its next OK; null for other statements
 * @param tableFree a SELECT or SET that names no table: the server clears the diagnostics area
 *     only for statements that open tables, so the last statement's warnings and errors stay
 *     through it unless it raises its own
 * @param statementCount the number of non-empty statements in the text
 * @param statements for MULTI, one classification per statement; empty otherwise
 */
public record Classification(
        StatementKind kind,
        boolean readOnly,
        boolean noWrites,
        RoutingHint hint,
        Set<SessionEffect> sessionEffects,
        List<SetAssignment> setAssignments,
        String useSchema,
        TransactionEffect transactionEffect,
        boolean consistentSnapshot,
        List<String> scopedVariables,
        boolean tableFree,
        int statementCount,
        List<Classification> statements) {

    public Classification {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(hint, "hint");
        Objects.requireNonNull(transactionEffect, "transactionEffect");
        sessionEffects = sessionEffects.isEmpty()
                ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(sessionEffects));
        setAssignments = List.copyOf(setAssignments);
        scopedVariables = scopedVariables == null ? null : List.copyOf(scopedVariables);
        statements = List.copyOf(statements);
    }

    /** It began with SET STATEMENT ... FOR. */
    public boolean setStatementFor() {
        return scopedVariables != null;
    }

    /** Whether the statement has this session effect. */
    public boolean has(SessionEffect effect) {
        return sessionEffects.contains(effect);
    }

    Classification withHint(RoutingHint newHint) {
        return newHint == hint ? this : new Classification(kind, readOnly, noWrites, newHint, sessionEffects, setAssignments,
                useSchema, transactionEffect, consistentSnapshot, scopedVariables, tableFree, statementCount, statements);
    }

    Classification withReadOnlyAndEffects(boolean newReadOnly, boolean newNoWrites, Set<SessionEffect> newEffects) {
        return new Classification(kind, newReadOnly, newNoWrites, hint, newEffects, setAssignments, useSchema, transactionEffect,
                consistentSnapshot, scopedVariables, tableFree, statementCount, statements);
    }
}
