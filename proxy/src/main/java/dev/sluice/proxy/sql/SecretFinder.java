package dev.sluice.proxy.sql;

import java.util.List;

/** Finds the password literals {@link Redactor} masks, statement by statement. */
final class SecretFinder {
    private static final int OTHER = -1;
    private static final int EQUALS = -2;
    private static final int OPEN = -3;

    private final TokenStream s;
    private final List<int[]> ranges;
    private int tokens;
    private boolean identified;
    private boolean setPassword;
    private boolean alterUser;
    private boolean passwordContext;
    private int prev1;
    private int prev2;

    SecretFinder(TokenStream stream, List<int[]> ranges) {
        this.s = stream;
        this.ranges = ranges;
        newStatement();
    }

    void run() {
        while (s.type(0) != TokenType.END) {
            TokenType t = s.type(0);
            if (t == TokenType.SEMICOLON) {
                newStatement();
            } else if (t == TokenType.WORD && KeywordTable.has(s.keywordId(0), KeywordTable.INTRODUCER)
                    && isLiteral(s.type(1))) {
                s.advance();
                continue;
            } else {
                if (isLiteral(t) && secret()) {
                    ranges.add(new int[] {s.start(0), s.end(0)});
                }
                track(t);
            }
            s.advance();
        }
    }

    private void newStatement() {
        tokens = 0;
        identified = false;
        setPassword = false;
        alterUser = false;
        passwordContext = false;
        prev1 = OTHER;
        prev2 = OTHER;
    }

    private boolean secret() {
        if (identified && (is(prev1, Keyword.BY) || is(prev1, Keyword.AS) || is(prev1, Keyword.USING)
                || (is(prev1, Keyword.PASSWORD) && is(prev2, Keyword.BY)))) {
            return true;
        }
        if (prev1 == OPEN && (is(prev2, Keyword.PASSWORD) || is(prev2, Keyword.OLD_PASSWORD))) {
            return true;
        }
        if (is(prev1, Keyword.REPLACE) && (setPassword || alterUser)) {
            return true;
        }
        if (setPassword && prev1 == EQUALS) {
            return true;
        }
        boolean afterSecretWord = is(prev1, Keyword.MASTER_PASSWORD) || is(prev1, Keyword.SOURCE_PASSWORD)
                || (passwordContext && is(prev1, Keyword.PASSWORD));
        boolean afterSecretEquals = prev1 == EQUALS && (is(prev2, Keyword.MASTER_PASSWORD)
                || is(prev2, Keyword.SOURCE_PASSWORD) || (passwordContext && is(prev2, Keyword.PASSWORD)));
        return afterSecretWord || afterSecretEquals;
    }

    private void track(TokenType t) {
        Keyword k = s.keyword(0);
        if (tokens == 0 && k != null) {
            passwordContext = k == Keyword.CREATE || k == Keyword.ALTER || k == Keyword.GRANT || k == Keyword.SET
                    || k == Keyword.START || k == Keyword.CHANGE;
        }
        if (k == Keyword.IDENTIFIED) {
            identified = true;
        } else if (tokens == 1 && k == Keyword.PASSWORD && is(prev1, Keyword.SET)) {
            setPassword = true;
        } else if (tokens == 1 && k == Keyword.USER && is(prev1, Keyword.ALTER)) {
            alterUser = true;
        }
        prev2 = prev1;
        prev1 = k != null ? k.ordinal() : s.isOperator(0, '=') ? EQUALS : t == TokenType.LEFT_PAREN ? OPEN : OTHER;
        tokens++;
    }

    private static boolean is(int code, Keyword k) {
        return code == k.ordinal();
    }

    private static boolean isLiteral(TokenType t) {
        return t == TokenType.STRING || t == TokenType.HEX_NUMBER || t == TokenType.BIT_NUMBER;
    }
}
