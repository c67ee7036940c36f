package dev.sluice.proxy.sql;

import dev.sluice.proxy.sql.FeatureScanner.Calls;
import dev.sluice.proxy.sql.StatementAnalyzer.Detail;

/**
 * The kind of a statement from its leading keyword and up to three words after it, and the
 * clauses a few kinds read afterwards. The rules where the manuals leave a choice: anything not
 * recognised is OTHER; statements that define or run stored code keep their semicolons.
 */
final class StatementHeads {
    private final StatementAnalyzer a;

    StatementHeads(StatementAnalyzer analyzer) {
        this.a = analyzer;
    }

    /** ANALYZE [LOCAL | NO_WRITE_TO_BINLOG] TABLE is administration; ANALYZE statement executes. */
    boolean analyzeTable() {
        TokenStream s = a.s;
        return s.is(1, Keyword.TABLE) || s.is(1, Keyword.LOCAL) || s.is(1, Keyword.NO_WRITE_TO_BINLOG);
    }

    void decide(TokenType t, Keyword k) {
        TokenStream s = a.s;
        if (t != TokenType.WORD) {
            other();
            return;
        }
        if (k == null) {
            if (s.isOperator(1, ':')) {
                block();
            } else {
                other();
            }
            return;
        }
        switch (k) {
            case SELECT, TABLE, VALUES -> a.decide(StatementKind.SELECT, Detail.NONE, Calls.ALWAYS);
            case SHOW -> show();
            case USE -> a.decide(StatementKind.USE, Detail.USE_NAME, Calls.NEVER);
            case BEGIN -> {
                if (s.is(1, Keyword.NOT)) {
                    block();
                } else {
                    begin(Detail.NONE);
                }
            }
            case START -> {
                if (s.is(1, Keyword.TRANSACTION)) {
                    begin(Detail.TRANSACTION_OPTIONS);
                } else {
                    admin(s.is(1, Keyword.SLAVE) || s.is(1, Keyword.REPLICA));
                }
            }
            case COMMIT -> end(StatementKind.COMMIT, TransactionEffect.COMMIT);
            case ROLLBACK -> {
                if (s.is(1, Keyword.TO) || (s.is(1, Keyword.WORK) && s.is(2, Keyword.TO))) {
                    simple(StatementKind.ROLLBACK_TO_SAVEPOINT);
                } else {
                    end(StatementKind.ROLLBACK, TransactionEffect.ROLLBACK);
                }
            }
            case SAVEPOINT -> simple(StatementKind.SAVEPOINT);
            case RELEASE -> simple(s.is(1, Keyword.SAVEPOINT) ? StatementKind.RELEASE_SAVEPOINT : StatementKind.OTHER);
            case INSERT -> a.decide(StatementKind.INSERT, Detail.INSERT_TABLE, Calls.ALWAYS);
            case REPLACE -> a.decide(StatementKind.REPLACE, Detail.INSERT_TABLE, Calls.ALWAYS);
            case UPDATE -> a.decide(StatementKind.UPDATE, Detail.NONE, Calls.ALWAYS);
            case DELETE -> a.decide(StatementKind.DELETE, Detail.NONE, Calls.ALWAYS);
            case LOAD -> load();
            case CREATE -> create();
            case ALTER -> alter();
            case DROP -> drop();
            case RENAME -> commit(s.is(1, Keyword.USER) ? StatementKind.ACCOUNT : StatementKind.DDL, Detail.NONE);
            case TRUNCATE -> commit(StatementKind.DDL, Detail.NONE);
            case GRANT, REVOKE -> commit(StatementKind.ACCOUNT, Detail.NONE);
            case CALL -> opaque(StatementKind.CALL);
            case DO -> a.decide(StatementKind.DO, Detail.NONE, Calls.ALWAYS);
            case HANDLER -> simple(StatementKind.HANDLER, Detail.HANDLER_ACTION);
            case LOCK -> lock(StatementKind.LOCK_TABLES, SessionEffect.TABLE_LOCK);
            case UNLOCK -> lock(StatementKind.UNLOCK_TABLES, SessionEffect.TABLE_UNLOCK);
            case PREPARE -> effect(StatementKind.PREPARE, SessionEffect.SQL_PREPARE);
            case EXECUTE -> {
                if (s.is(1, Keyword.IMMEDIATE)) {
                    opaque(StatementKind.EXECUTE);
                } else {
                    effect(StatementKind.EXECUTE, SessionEffect.SQL_EXECUTE);
                }
            }
            case DEALLOCATE -> effect(StatementKind.DEALLOCATE, SessionEffect.SQL_DEALLOCATE);
            case XA -> xa();
            case FLUSH -> commit(StatementKind.FLUSH, Detail.FLUSH_LOCK);
            case KILL -> simple(StatementKind.KILL);
            case SET -> set();
            case GET -> {
                boolean diagnostics = s.is(1, Keyword.DIAGNOSTICS)
                        || ((s.is(1, Keyword.CURRENT) || s.is(1, Keyword.STACKED)) && s.is(2, Keyword.DIAGNOSTICS));
                simple(StatementKind.OTHER);
                if (diagnostics) {
                    a.features.add(SessionEffect.DIAGNOSTICS_READ);
                    a.features.variablesReadWrite();
                }
            }
            case ANALYZE, CHECK, OPTIMIZE, REPAIR, INSTALL, UNINSTALL, CHANGE, STOP, CACHE, IMPORT -> admin(true);
            case RESET -> admin(!s.is(1, Keyword.PERSIST));
            case CHECKSUM, PURGE, SHUTDOWN, RESTART, BINLOG, CLONE -> admin(false);
            case BACKUP -> backup();
            case IF, WHILE, LOOP, REPEAT, CASE, DECLARE -> block();
            default -> other();
        }
    }

    private void show() {
        TokenStream s = a.s;
        a.decide(StatementKind.SHOW, Detail.NONE, Calls.ALWAYS);
        if (s.is(1, Keyword.WARNINGS) || s.is(1, Keyword.ERRORS) || s.is(1, Keyword.PROFILE)
                || s.is(1, Keyword.PROFILES) || (s.is(1, Keyword.COUNT) && s.type(2) == TokenType.LEFT_PAREN)) {
            a.features.add(SessionEffect.DIAGNOSTICS_READ);
        } else if (s.is(1, Keyword.EXPLAIN) || s.is(1, Keyword.ANALYZE)) {
            a.features.block(FeatureScanner.PRIMARY_ONLY);
        } else if (s.is(1, Keyword.CREATE) || s.is(1, Keyword.PROCEDURE)) {
            // SHOW CREATE TABLE, SHOW PROCEDURE STATUS, SHOW CREATE PROCEDURE: words of SHOW, not writes
            a.exemptUntil = s.is(1, Keyword.CREATE) && s.is(2, Keyword.PROCEDURE) ? s.end(2) : s.end(1);
        }
    }

    private void begin(Detail options) {
        a.decide(StatementKind.BEGIN, options, Calls.NEVER);
    }

    private void end(StatementKind kind, TransactionEffect effect) {
        a.decide(kind, Detail.COMMIT_OPTIONS, Calls.NEVER);
        a.transaction = effect;
    }

    private void load() {
        TokenStream s = a.s;
        if (s.is(1, Keyword.DATA) || s.is(1, Keyword.XML)) {
            a.decide(StatementKind.LOAD, Detail.LOAD_TABLE, Calls.ALWAYS);
            a.features.variablesReadWrite();
        } else if (s.is(1, Keyword.INDEX)) {
            admin(true);
        } else {
            other();
        }
    }

    private void create() {
        TokenStream s = a.s;
        int at = s.is(1, Keyword.OR) && s.is(2, Keyword.REPLACE) ? 3 : 1;
        if (s.is(at, Keyword.TEMPORARY)) {
            a.decide(StatementKind.DDL, Detail.NONE, Calls.AFTER_SELECT);
            a.features.add(SessionEffect.TEMPORARY_TABLE_CREATE);
        } else if (s.is(at, Keyword.USER) || s.is(at, Keyword.ROLE)) {
            commit(StatementKind.ACCOUNT, Detail.NONE);
        } else {
            commit(StatementKind.DDL, Detail.CREATE_OBJECT);
        }
    }

    private void alter() {
        commit(a.s.is(1, Keyword.USER) ? StatementKind.ACCOUNT : StatementKind.DDL, Detail.CREATE_OBJECT);
    }

    private void drop() {
        TokenStream s = a.s;
        if (s.is(1, Keyword.TEMPORARY)) {
            a.decide(StatementKind.DDL, Detail.NONE, Calls.NEVER);
            a.features.add(SessionEffect.TEMPORARY_TABLE_DROP);
        } else if (s.is(1, Keyword.PREPARE)) {
            effect(StatementKind.DEALLOCATE, SessionEffect.SQL_DEALLOCATE);
        } else {
            commit(s.is(1, Keyword.USER) || s.is(1, Keyword.ROLE) ? StatementKind.ACCOUNT : StatementKind.DDL,
                    Detail.NONE);
        }
    }

    private void lock(StatementKind kind, SessionEffect effect) {
        if (a.s.is(1, Keyword.INSTANCE)) {
            simple(kind);
        } else {
            commit(kind, Detail.NONE);
        }
        a.features.add(effect);
    }

    private void xa() {
        TokenStream s = a.s;
        simple(StatementKind.XA);
        if (s.is(1, Keyword.START) || s.is(1, Keyword.BEGIN)) {
            a.features.add(SessionEffect.XA_BEGIN);
            a.transaction = TransactionEffect.BEGIN;
        } else if (s.is(1, Keyword.END) || s.is(1, Keyword.PREPARE)) {
            a.features.add(SessionEffect.XA_CONTINUE);
        } else if (s.is(1, Keyword.COMMIT) || s.is(1, Keyword.ROLLBACK)) {
            a.features.add(SessionEffect.XA_FINISH);
            a.transaction = s.is(1, Keyword.COMMIT) ? TransactionEffect.COMMIT : TransactionEffect.ROLLBACK;
        }
    }

    private void set() {
        TokenStream s = a.s;
        if (s.is(1, Keyword.PASSWORD) || (s.is(1, Keyword.DEFAULT) && s.is(2, Keyword.ROLE))) {
            commit(StatementKind.ACCOUNT, Detail.NONE);
        } else {
            a.decide(StatementKind.SET, Detail.SET, Calls.ALWAYS);
        }
    }

    /** MariaDB BACKUP STAGE / BACKUP LOCK hold locks until BACKUP STAGE END / BACKUP UNLOCK. */
    private void backup() {
        TokenStream s = a.s;
        admin(false);
        if (s.is(1, Keyword.UNLOCK) || (s.is(1, Keyword.STAGE) && s.is(2, Keyword.END))) {
            a.features.add(SessionEffect.TABLE_UNLOCK);
        } else if (s.is(1, Keyword.LOCK) || s.is(1, Keyword.STAGE)) {
            a.features.add(SessionEffect.TABLE_LOCK);
        }
    }

    private void admin(boolean commits) {
        if (commits) {
            commit(StatementKind.ADMIN, Detail.NONE);
        } else {
            simple(StatementKind.ADMIN);
        }
    }

    private void commit(StatementKind kind, Detail detail) {
        a.decide(kind, detail, Calls.AFTER_SELECT);
        a.transaction = TransactionEffect.IMPLICIT_COMMIT;
    }

    private void effect(StatementKind kind, SessionEffect effect) {
        simple(kind);
        a.features.add(effect);
    }

    /** CALL, EXECUTE IMMEDIATE: runs code the text does not show. */
    private void opaque(StatementKind kind) {
        effect(kind, SessionEffect.OPAQUE_PROGRAM);
    }

    /** An anonymous compound statement (MariaDB): runs code, and its semicolons are its own. */
    private void block() {
        opaque(StatementKind.OTHER);
        a.compoundStatement();
    }

    private void simple(StatementKind kind) {
        simple(kind, Detail.NONE);
    }

    private void simple(StatementKind kind, Detail detail) {
        a.decide(kind, detail, Calls.NEVER);
    }

    private void other() {
        simple(StatementKind.OTHER);
    }
}
