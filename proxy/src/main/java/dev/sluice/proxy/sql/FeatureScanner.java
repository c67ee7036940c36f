package dev.sluice.proxy.sql;

import java.util.EnumSet;

/**
 * Looks at every token of one statement, at any depth, for what stops it from being read-only
 * (locking clauses, INTO, write keywords, calls of unknown or side-effecting functions) and for
 * the {@link SessionEffect}s that variables and built-in functions cause. The statement's kind
 * and leading words are {@link StatementAnalyzer}'s business; it tells this scanner, through a
 * role per token, which tokens it consumed as wrapper words, which names stand before a column
 * list rather than a call, and which user variables are SET targets.
 */
final class FeatureScanner {
    static final int ROLE_WRAPPER = 1;
    static final int ROLE_NOT_CALL = 2;
    static final int ROLE_ASSIGN_TARGET = 4;

    /** FOR UPDATE, FOR SHARE, LOCK IN SHARE MODE. */
    static final int LOCKING = 1;
    /** SELECT ... INTO (OUTFILE, DUMPFILE, variables). */
    static final int INTO = 2;
    /** A word that cannot appear in a read-only statement (INSERT, UPDATE, SET, ...). */
    static final int WRITE_WORD = 4;
    /** A call of a function that is not a known built-in. */
    static final int UNKNOWN_CALL = 8;
    /** Something that only means what it says on the primary (locks, waits, server files). */
    static final int PRIMARY_ONLY = 16;
    /** {@code name@host} outside an account statement. */
    static final int HOST_NAME = 32;

    /** When a WORD before {@code (} is checked as a function call. */
    enum Calls { NEVER, AFTER_SELECT, ALWAYS }

    /** Reserved words that a read-only statement never contains outside quotes, by ordinal. */
    private static final boolean[] WRITE_WORDS = new boolean[Keyword.count()];

    static {
        for (Keyword k : EnumSet.of(Keyword.INSERT, Keyword.UPDATE, Keyword.DELETE, Keyword.REPLACE, Keyword.CREATE,
                Keyword.DROP, Keyword.ALTER, Keyword.TRUNCATE, Keyword.RENAME, Keyword.GRANT, Keyword.REVOKE,
                Keyword.LOAD, Keyword.CALL, Keyword.LOCK, Keyword.UNLOCK, Keyword.SET, Keyword.INTO, Keyword.OUTFILE,
                Keyword.DUMPFILE, Keyword.PROCEDURE, Keyword.PURGE, Keyword.KILL, Keyword.OPTIMIZE, Keyword.CHANGE,
                Keyword.RELEASE)) {
            WRITE_WORDS[k.ordinal()] = true;
        }
    }

    private int blockers;
    /** One bit per {@link SessionEffect} ordinal (a long leaves room for 64). */
    private long effects;
    private Calls calls = Calls.NEVER;
    private boolean sawSelect;
    private boolean intoVariables;
    private boolean variablesReadWrite;
    /** FROM (but FROM DUAL), JOIN or TABLE: the statement may open a table. */
    private boolean namesTables;

    void begin() {
        blockers = 0;
        effects = 0;
        calls = Calls.NEVER;
        sawSelect = false;
        intoVariables = false;
        variablesReadWrite = false;
        namesTables = false;
    }

    void calls(Calls mode) {
        calls = mode;
    }

    /** Every user variable counts as both read and written (LOAD DATA, stored program bodies). */
    void variablesReadWrite() {
        variablesReadWrite = true;
    }

    void add(SessionEffect effect) {
        effects |= 1L << effect.ordinal();
    }

    void block(int blocker) {
        blockers |= blocker;
    }

    int blockers() {
        return blockers;
    }

    long effects() {
        return effects;
    }

    boolean namesTables() {
        return namesTables;
    }

    void accept(TokenStream s, int role) {
        TokenType t = s.type(0);
        if (t != TokenType.USER_VARIABLE && t != TokenType.COMMA) {
            intoVariables = false;
        }
        switch (t) {
            case WORD -> word(s, role);
            case QUOTED_IDENTIFIER -> {
                boolean columnList = s.prevType() == TokenType.RIGHT_PAREN || s.prevIs(Keyword.AS);
                if (s.type(1) == TokenType.LEFT_PAREN && (role & ROLE_NOT_CALL) == 0 && !columnList) {
                    unknownCall();
                }
            }
            case USER_VARIABLE -> userVariable(s, role);
            case SYSTEM_VARIABLE -> {
                if ((role & ROLE_ASSIGN_TARGET) == 0) {
                    systemVariable(s);
                }
            }
            default -> { }
        }
    }

    private void word(TokenStream s, int role) {
        boolean call = s.type(1) == TokenType.LEFT_PAREN && (role & ROLE_NOT_CALL) == 0;
        // the server reads a word right after a dot as a name, never as a keyword
        if (s.prevType() == TokenType.DOT && !s.spaceBefore(0)) {
            if (call) {
                unknownCall();
            }
            return;
        }
        int id = s.keywordId(0);
        Keyword k = Keyword.byId(id);
        if (k != null) {
            keyword(s, k, role, call);
        }
        boolean columnList = s.prevType() == TokenType.RIGHT_PAREN || s.prevIs(Keyword.AS);
        if (call && !columnList && !KeywordTable.has(id, KeywordTable.FUNCTION | KeywordTable.STRUCTURAL)) {
            unknownCall();
        }
    }

    private void keyword(TokenStream s, Keyword k, int role, boolean call) {
        switch (k) {
            case SELECT -> sawSelect = true;
            case FROM -> namesTables |= !(s.type(1) == TokenType.WORD && nameIs(s.text(), s.start(1), s.end(1), "dual"));
            case JOIN, TABLE -> namesTables = true;
            case FOR -> {
                if (s.is(1, Keyword.UPDATE) || s.is(1, Keyword.SHARE)) {
                    blockers |= LOCKING;
                }
            }
            case LOCK -> {
                if (s.is(1, Keyword.IN) && s.is(2, Keyword.SHARE)) {
                    blockers |= LOCKING;
                }
            }
            case INTO -> {
                blockers |= INTO;
                intoVariables = s.type(1) == TokenType.USER_VARIABLE;
            }
            case SQL_CALC_FOUND_ROWS -> add(SessionEffect.FOUND_ROWS_CALC);
            case NEXT -> {
                if (s.is(1, Keyword.VALUE) && s.is(2, Keyword.FOR)) {
                    add(SessionEffect.SEQUENCE_NEXT);
                    blockers |= PRIMARY_ONLY;
                }
            }
            case PREVIOUS -> {
                if (s.is(1, Keyword.VALUE) && s.is(2, Keyword.FOR)) {
                    add(SessionEffect.SEQUENCE_LAST_READ);
                }
            }
            default -> { }
        }
        boolean functionCall = call && KeywordTable.has(k.ordinal(), KeywordTable.FUNCTION);
        if (WRITE_WORDS[k.ordinal()] && (role & ROLE_WRAPPER) == 0 && !functionCall
                && !(k == Keyword.SET && s.prevIs(Keyword.CHARACTER))) {
            blockers |= WRITE_WORD;
        }
        if (functionCall && callsEnabled()) {
            builtin(s, k);
        }
    }

    /** The built-ins whose effects go beyond their value. */
    private void builtin(TokenStream s, Keyword k) {
        switch (k) {
            case GET_LOCK, SERVICE_GET_READ_LOCKS, SERVICE_GET_WRITE_LOCKS -> add(SessionEffect.USER_LOCK_ACQUIRE);
            case RELEASE_LOCK, RELEASE_ALL_LOCKS, SERVICE_RELEASE_LOCKS -> add(SessionEffect.USER_LOCK_RELEASE);
            case IS_FREE_LOCK, IS_USED_LOCK, LOAD_FILE, MASTER_POS_WAIT, SOURCE_POS_WAIT, MASTER_GTID_WAIT,
                    WAIT_FOR_EXECUTED_GTID_SET, WAIT_UNTIL_SQL_THREAD_AFTER_GTIDS, SETVAL -> blockers |= PRIMARY_ONLY;
            case LAST_INSERT_ID -> add(s.type(2) == TokenType.RIGHT_PAREN
                    ? SessionEffect.LAST_INSERT_ID_READ : SessionEffect.LAST_INSERT_ID_SET);
            case FOUND_ROWS -> add(SessionEffect.FOUND_ROWS_READ);
            case ROW_COUNT -> add(SessionEffect.ROW_COUNT_READ);
            case CONNECTION_ID -> add(SessionEffect.CONNECTION_ID_READ);
            case NEXTVAL -> {
                add(SessionEffect.SEQUENCE_NEXT);
                blockers |= PRIMARY_ONLY;
            }
            case LASTVAL -> add(SessionEffect.SEQUENCE_LAST_READ);
            default -> { }
        }
    }

    private void unknownCall() {
        if (callsEnabled()) {
            blockers |= UNKNOWN_CALL;
            add(SessionEffect.OPAQUE_PROGRAM);
        }
    }

    private boolean callsEnabled() {
        return calls == Calls.ALWAYS || (calls == Calls.AFTER_SELECT && sawSelect);
    }

    private void userVariable(TokenStream s, int role) {
        if ((role & ROLE_ASSIGN_TARGET) != 0) {
            add(SessionEffect.USER_VARIABLE_WRITE);
            return;
        }
        TokenType prev = s.prevType();
        boolean hostPart = !s.spaceBefore(0) && (prev == TokenType.STRING || prev == TokenType.QUOTED_IDENTIFIER
                || (prev == TokenType.WORD && s.prevKeywordId() < 0));
        if (hostPart) {
            blockers |= HOST_NAME;
            return;
        }
        if (variablesReadWrite) {
            add(SessionEffect.USER_VARIABLE_WRITE);
            add(SessionEffect.USER_VARIABLE_READ);
        } else if (intoVariables || s.type(1) == TokenType.ASSIGN) {
            add(SessionEffect.USER_VARIABLE_WRITE);
        } else {
            add(SessionEffect.USER_VARIABLE_READ);
        }
    }

    private void systemVariable(TokenStream s) {
        CharSequence text = s.text();
        int end = s.end(0);
        int nameStart = end;
        while (nameStart > s.start(0) + 2 && text.charAt(nameStart - 1) != '.') {
            nameStart--;
        }
        if (nameIs(text, nameStart, end, "warning_count") || nameIs(text, nameStart, end, "error_count")) {
            add(SessionEffect.DIAGNOSTICS_READ);
        } else if (nameIs(text, nameStart, end, "last_insert_id") || nameIs(text, nameStart, end, "identity")
                || nameIs(text, nameStart, end, "insert_id")) {
            add(SessionEffect.LAST_INSERT_ID_READ);
        }
    }

    private static boolean nameIs(CharSequence text, int start, int end, String name) {
        if (end - start != name.length()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (Character.toLowerCase(text.charAt(start + i)) != name.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
