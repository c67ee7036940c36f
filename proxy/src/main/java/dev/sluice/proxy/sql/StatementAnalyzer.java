package dev.sluice.proxy.sql;

import static dev.sluice.proxy.sql.FeatureScanner.ROLE_NOT_CALL;
import static dev.sluice.proxy.sql.FeatureScanner.ROLE_WRAPPER;

/**
 * Reads one statement token by token: first its head (wrappers such as parentheses, WITH,
 * EXPLAIN, SET STATEMENT ... FOR, then the leading keyword that decides the kind, see
 * {@link StatementHeads}), then the few clauses its kind cares about ({@link StatementClauses}).
 * Every token also goes through the {@link FeatureScanner}. Reused for each statement; not
 * thread-safe. Its fields are the statement's findings, read by the classifier when it ends.
 */
final class StatementAnalyzer {

    private enum Phase { HEAD, EXPLAIN_OPTIONS, SET_STATEMENT, CTE, BODY }

    private enum Cte { NAME, AFTER_NAME, COLUMNS, AS, BODY_OPEN, BODY, AFTER_BODY }

    /** Clauses that some kinds read after their head. */
    enum Detail {
        NONE, SET, INSERT_TABLE, LOAD_TABLE, CREATE_OBJECT, USE_NAME, TRANSACTION_OPTIONS, COMMIT_OPTIONS,
        HANDLER_ACTION, FLUSH_LOCK
    }

    final FeatureScanner features = new FeatureScanner();
    final SetParser set = new SetParser(features);
    private final StatementHeads heads = new StatementHeads(this);
    private final StatementClauses clauses = new StatementClauses(this);
    TokenStream s;

    private Phase phase;
    private Cte cte;
    private int cteDepth;
    private int depth;
    private int tokens;
    private int skip;
    private boolean explain;
    private boolean describeTable;
    private boolean explainOther;
    StatementKind kind;
    StatementKind subject;
    Detail detail;
    boolean compound;
    TransactionEffect transaction;
    boolean readOnlyTransaction;
    boolean readWriteTransaction;
    boolean snapshot;
    boolean chain;
    String useSchema;
    /** It began with SET STATEMENT ... FOR: the variables it sets for the statement (lower case); else null. */
    java.util.List<String> scopedVariables;
    /** Tokens starting before this are exempt from the write-word check (SHOW CREATE PROCEDURE). */
    int exemptUntil;

    void begin(TokenStream stream) {
        s = stream;
        features.begin();
        set.begin(stream);
        phase = Phase.HEAD;
        depth = 0;
        tokens = 0;
        skip = 0;
        explain = false;
        describeTable = false;
        explainOther = false;
        kind = null;
        subject = null;
        detail = Detail.NONE;
        compound = false;
        transaction = TransactionEffect.NONE;
        readOnlyTransaction = false;
        readWriteTransaction = false;
        snapshot = false;
        chain = false;
        useSchema = null;
        scopedVariables = null;
        exemptUntil = -1;
    }

    /** Whether a semicolon belongs to the statement (a stored program or compound statement). */
    boolean compound() {
        return compound;
    }

    boolean isEmpty() {
        return tokens == 0;
    }

    void accept() {
        TokenType t = s.type(0);
        if (t == TokenType.RIGHT_PAREN && depth > 0) {
            depth--;
        }
        tokens++;
        int role = switch (phase) {
            case HEAD -> head();
            case EXPLAIN_OPTIONS -> explainOption();
            case SET_STATEMENT -> setStatement();
            case CTE -> cte();
            case BODY -> body();
        };
        if (s.start(0) < exemptUntil) {
            role |= ROLE_WRAPPER;
        }
        features.accept(s, role);
        if (t == TokenType.LEFT_PAREN) {
            depth++;
        }
    }

    /** Settles the kind and its transaction effect once the statement's last token was seen. */
    void finish() {
        if (kind == null) {
            kind = explain ? StatementKind.EXPLAIN : tokens == 0 ? StatementKind.EMPTY : StatementKind.OTHER;
        }
        if (detail == Detail.SET) {
            set.finish();
            if (set.implicitCommit()) {
                transaction = TransactionEffect.IMPLICIT_COMMIT;
            }
        }
        if (kind == StatementKind.BEGIN) {
            transaction = readWriteTransaction ? TransactionEffect.BEGIN_READ_WRITE
                    : readOnlyTransaction ? TransactionEffect.BEGIN_READ_ONLY : TransactionEffect.BEGIN;
        } else if (chain && transaction == TransactionEffect.COMMIT) {
            transaction = TransactionEffect.COMMIT_AND_CHAIN;
        } else if (chain && transaction == TransactionEffect.ROLLBACK) {
            transaction = TransactionEffect.ROLLBACK_AND_CHAIN;
        }
        if (kind == StatementKind.EXPLAIN) {
            transaction = TransactionEffect.NONE;
        }
    }

    /** Whether the statement provably reads only, given that the text ended cleanly. */
    boolean readOnly() {
        return features.effects() == 0 && noWrites();
    }

    /**
     * A SELECT or SET that names no table (a system variable, an expression): the server keeps
     * the last statement's diagnostics through it unless it raises its own.
     */
    boolean tableFree() {
        return (kind == StatementKind.SELECT || kind == StatementKind.SET) && !features.namesTables();
    }

    /** Like {@link #readOnly()}, but reading what the session left on its connection is allowed. */
    boolean noWrites() {
        if (features.blockers() != 0 || (features.effects() & ~SessionEffect.READS_MASK) != 0) {
            return false;
        }
        return switch (kind) {
            case SELECT, SHOW -> true;
            case EXPLAIN -> describeTable || (!explainOther && subject == StatementKind.SELECT);
            case BEGIN -> readOnlyTransaction && !readWriteTransaction;
            default -> false;
        };
    }

    /** Called by {@link StatementHeads} when the leading keyword decided the kind. */
    void decide(StatementKind decided, Detail next, FeatureScanner.Calls calls) {
        phase = Phase.BODY;
        detail = next;
        if (explain) {
            subject = decided;
            kind = StatementKind.EXPLAIN;
        } else {
            kind = decided;
        }
        features.calls(calls);
    }

    /** A statement that runs or defines code: semicolons inside belong to it. */
    void compoundStatement() {
        compound = true;
        features.variablesReadWrite();
    }

    private int head() {
        TokenType t = s.type(0);
        if (t == TokenType.LEFT_PAREN) {
            return 0;
        }
        Keyword k = s.keyword(0);
        if (k == Keyword.WITH) {
            phase = Phase.CTE;
            cte = Cte.NAME;
            cteDepth = depth;
            return 0;
        }
        if (k == Keyword.EXPLAIN || k == Keyword.DESCRIBE || k == Keyword.DESC
                || (k == Keyword.ANALYZE && !heads.analyzeTable())) {
            explain = true;
            phase = Phase.EXPLAIN_OPTIONS;
            return 0;
        }
        if (k == Keyword.SET && s.is(1, Keyword.STATEMENT)) {
            phase = Phase.SET_STATEMENT;
            scopedVariables = new java.util.ArrayList<>(2);
            return ROLE_WRAPPER;
        }
        heads.decide(t, k);
        return 0;
    }

    /** EXPLAIN's options up to the statement it explains, or the table it describes. */
    private int explainOption() {
        Keyword k = s.keyword(0);
        TokenType t = s.type(0);
        if (skip > 0) {
            skip--;
            return 0;
        }
        if (k == Keyword.EXTENDED || k == Keyword.PARTITIONS || k == Keyword.ANALYZE) {
            return 0;
        }
        if (k == Keyword.FORMAT) {
            skip = s.isOperator(1, '=') ? 2 : 1;
            return 0;
        }
        if (k == Keyword.INTO || t == TokenType.USER_VARIABLE || t == TokenType.COMMA) {
            return 0;
        }
        if (k == Keyword.FOR && s.is(1, Keyword.CONNECTION)) {
            explainOther = true;
            kind = StatementKind.EXPLAIN;
            phase = Phase.BODY;
            return 0;
        }
        if (t == TokenType.LEFT_PAREN || k == Keyword.SELECT || k == Keyword.WITH || k == Keyword.TABLE
                || k == Keyword.VALUES || k == Keyword.INSERT || k == Keyword.UPDATE || k == Keyword.DELETE
                || k == Keyword.REPLACE) {
            phase = Phase.HEAD;
            return head();
        }
        describeTable = true;
        kind = StatementKind.EXPLAIN;
        phase = Phase.BODY;
        return 0;
    }

    /** MariaDB's SET STATEMENT var = value [, ...] FOR statement; SET itself is no write here. */
    private int setStatement() {
        if (depth == 0 && s.is(0, Keyword.FOR)) {
            phase = Phase.HEAD;
        } else if (depth == 0 && (s.prevIs(Keyword.STATEMENT) || s.prevType() == TokenType.COMMA)
                && (s.type(0) == TokenType.WORD || s.type(0) == TokenType.QUOTED_IDENTIFIER)) {
            scopedVariables.add(SetParser.unquote(s.string(0)).toLowerCase(java.util.Locale.ROOT));
        }
        return 0;
    }

    /** WITH [RECURSIVE] name [(columns)] AS (body) [, ...] followed by the statement. */
    private int cte() {
        TokenType t = s.type(0);
        switch (cte) {
            case NAME -> {
                if (s.is(0, Keyword.RECURSIVE)) {
                    return 0;
                }
                if (t == TokenType.WORD || t == TokenType.QUOTED_IDENTIFIER) {
                    cte = Cte.AFTER_NAME;
                    return ROLE_NOT_CALL;
                }
            }
            case AFTER_NAME -> {
                if (t == TokenType.LEFT_PAREN) {
                    cte = Cte.COLUMNS;
                    return 0;
                }
                if (s.is(0, Keyword.AS)) {
                    cte = Cte.BODY_OPEN;
                    return 0;
                }
            }
            case COLUMNS -> {
                if (t == TokenType.RIGHT_PAREN && depth == cteDepth) {
                    cte = Cte.AS;
                }
                return 0;
            }
            case AS -> {
                if (s.is(0, Keyword.AS)) {
                    cte = Cte.BODY_OPEN;
                    return 0;
                }
            }
            case BODY_OPEN -> {
                if (t == TokenType.LEFT_PAREN) {
                    cte = Cte.BODY;
                    return 0;
                }
            }
            case BODY -> {
                if (t == TokenType.RIGHT_PAREN && depth == cteDepth) {
                    cte = Cte.AFTER_BODY;
                }
                return 0;
            }
            case AFTER_BODY -> {
                if (t == TokenType.COMMA) {
                    cte = Cte.NAME;
                    return 0;
                }
                phase = Phase.HEAD;
                return head();
            }
        }
        decide(StatementKind.OTHER, Detail.NONE, FeatureScanner.Calls.NEVER);
        return 0;
    }

    private int body() {
        return switch (detail) {
            case NONE -> 0;
            case SET -> set.accept(depth);
            default -> clauses.accept(detail, depth);
        };
    }
}
