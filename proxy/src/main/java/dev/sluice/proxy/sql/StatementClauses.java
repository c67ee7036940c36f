package dev.sluice.proxy.sql;

import static dev.sluice.proxy.sql.FeatureScanner.ROLE_NOT_CALL;

import dev.sluice.proxy.sql.StatementAnalyzer.Detail;

/**
 * The clauses a few statement kinds read after their head: the table before an INSERT's column
 * list, the options of START TRANSACTION, COMMIT and ROLLBACK, the action of HANDLER, a lock
 * taken by FLUSH, the schema of USE, and whether CREATE defines a stored program.
 */
final class StatementClauses {
    private final StatementAnalyzer a;

    StatementClauses(StatementAnalyzer analyzer) {
        this.a = analyzer;
    }

    /** Reads one token of the clause {@code detail} names; returns its role for the scanner. */
    int accept(Detail detail, int depth) {
        TokenStream s = a.s;
        Keyword k = s.keyword(0);
        TokenType t = s.type(0);
        switch (detail) {
            case INSERT_TABLE -> {
                if (k == Keyword.LOW_PRIORITY || k == Keyword.DELAYED || k == Keyword.HIGH_PRIORITY
                        || k == Keyword.IGNORE || k == Keyword.INTO) {
                    return 0;
                }
                return tableName(s, t);
            }
            case LOAD_TABLE -> {
                if (k == Keyword.TABLE && depth == 0) {
                    a.detail = Detail.INSERT_TABLE;
                }
            }
            case CREATE_OBJECT -> createObject(k, depth);
            case USE_NAME -> {
                if (t == TokenType.WORD || t == TokenType.QUOTED_IDENTIFIER) {
                    a.useSchema = SetParser.unquote(s.string(0));
                }
                a.detail = Detail.NONE;
            }
            case TRANSACTION_OPTIONS -> {
                if (k == Keyword.READ && s.is(1, Keyword.ONLY)) {
                    a.readOnlyTransaction = true;
                } else if (k == Keyword.READ && s.is(1, Keyword.WRITE)) {
                    a.readWriteTransaction = true;
                } else if (k == Keyword.CONSISTENT && s.is(1, Keyword.SNAPSHOT)) {
                    a.snapshot = true;
                }
            }
            case COMMIT_OPTIONS -> {
                if (k == Keyword.CHAIN && !s.prevIs(Keyword.NO)) {
                    a.chain = true;
                } else if (k == Keyword.RELEASE && !s.prevIs(Keyword.NO)) {
                    a.features.add(SessionEffect.CONNECTION_CLOSE);
                }
            }
            case HANDLER_ACTION -> handlerAction(s, k, depth);
            case FLUSH_LOCK -> {
                if ((k == Keyword.READ && s.is(1, Keyword.LOCK)) || (k == Keyword.FOR && s.is(1, Keyword.EXPORT))) {
                    a.features.add(SessionEffect.TABLE_LOCK);
                }
            }
            default -> { }
        }
        return 0;
    }

    /** The table name before an INSERT's column list: {@code t (a, b)} is not a call of t. */
    private int tableName(TokenStream s, TokenType t) {
        if (t == TokenType.DOT) {
            return 0;
        }
        a.detail = Detail.NONE;
        if ((t == TokenType.WORD || t == TokenType.QUOTED_IDENTIFIER) && s.type(1) != TokenType.DOT) {
            return ROLE_NOT_CALL;
        }
        if (t == TokenType.WORD || t == TokenType.QUOTED_IDENTIFIER) {
            a.detail = Detail.INSERT_TABLE;
        }
        return 0;
    }

    private void createObject(Keyword k, int depth) {
        if (k == null || depth != 0) {
            return;
        }
        switch (k) {
            case PROCEDURE, FUNCTION, TRIGGER, EVENT, PACKAGE -> {
                a.compoundStatement();
                a.detail = Detail.NONE;
            }
            case TABLE, INDEX, USER, ROLE, SELECT, AS, VIEW, DATABASE, SCHEMA, SEQUENCE, SERVER, TABLESPACE,
                    UNIQUE, FULLTEXT, SPATIAL -> a.detail = Detail.NONE;
            default -> { }
        }
    }

    /** HANDLER name OPEN / READ / CLOSE; the name itself may be any word. */
    private void handlerAction(TokenStream s, Keyword k, int depth) {
        if (k == null || depth != 0 || s.prevIs(Keyword.HANDLER) || s.prevType() == TokenType.DOT) {
            return;
        }
        SessionEffect effect = switch (k) {
            case OPEN -> SessionEffect.HANDLER_OPEN;
            case READ -> SessionEffect.HANDLER_READ;
            case CLOSE -> SessionEffect.HANDLER_CLOSE;
            default -> null;
        };
        if (effect != null) {
            a.features.add(effect);
            a.detail = Detail.NONE;
        }
    }

}
