package dev.sluice.proxy.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Follows the assignments of a SET statement (after the SET keyword) token by token. A scope word
 * (GLOBAL, SESSION, LOCAL, PERSIST, PERSIST_ONLY) applies to the assignments after it until the
 * next one, as the server does; {@code @@global.x} applies to its own assignment only.
 */
final class SetParser {
    /** Session variables whose value the next statement or transaction consumes, or that name a connection. */
    private static final Set<String> UNREPLAYABLE = Set.of("insert_id", "last_insert_id", "identity",
            "rand_seed1", "rand_seed2", "gtid_next", "gtid_seq_no", "pseudo_thread_id");

    private enum State { TARGET, NAME, EQUALS, VALUE, DONE }

    private final FeatureScanner findings;
    private final List<SetAssignment> assignments = new ArrayList<>();
    private TokenStream s;
    private State state;
    private SetScope sticky;
    private SetScope modifier;
    private SetScope scope;
    private String name;
    private int nameStart;
    private int nameEnd;
    private int valueStart;
    private int valueEnd;
    private boolean replayable;
    private int skip;
    private boolean listValue;
    private boolean implicitCommit;

    SetParser(FeatureScanner findings) {
        this.findings = findings;
    }

    void begin(TokenStream stream) {
        s = stream;
        assignments.clear();
        state = State.TARGET;
        sticky = SetScope.SESSION;
        modifier = null;
        implicitCommit = false;
        skip = 0;
    }

    List<SetAssignment> assignments() {
        return assignments;
    }

    /** SET autocommit = 1 (ON, TRUE) commits an open transaction. */
    boolean implicitCommit() {
        return implicitCommit;
    }

    /** Takes the current token at parenthesis {@code depth}; returns its role for the scanner. */
    int accept(int depth) {
        return switch (state) {
            case TARGET -> target();
            case NAME -> name();
            case EQUALS -> equals();
            case VALUE -> value(depth);
            case DONE -> 0;
        };
    }

    /** Completes the last assignment at the end of the statement. */
    void finish() {
        if (state == State.VALUE) {
            complete();
        } else if (state != State.DONE) {
            unparsed();
        }
    }

    private int target() {
        TokenType t = s.type(0);
        Keyword k = s.keyword(0);
        boolean assignedNext = s.isOperator(1, '=') || s.type(1) == TokenType.ASSIGN;
        if (k != null && !assignedNext) {
            switch (k) {
                case GLOBAL -> { return modifier(SetScope.GLOBAL); }
                case SESSION, LOCAL -> { return modifier(SetScope.SESSION); }
                case PERSIST -> { return modifier(SetScope.PERSIST); }
                case PERSIST_ONLY -> { return modifier(SetScope.PERSIST_ONLY); }
                case NAMES -> { return special(SetScope.SESSION, "NAMES", 0); }
                case CHARSET -> { return special(SetScope.SESSION, "CHARACTER SET", 0); }
                case CHARACTER -> {
                    if (s.is(1, Keyword.SET)) {
                        return special(SetScope.SESSION, "CHARACTER SET", 1);
                    }
                }
                case TRANSACTION -> {
                    return special(modifier != null ? modifier : SetScope.NEXT_TRANSACTION, "TRANSACTION", 0);
                }
                case ROLE -> { return special(SetScope.SESSION, "ROLE", 0); }
                default -> { }
            }
        }
        if (t == TokenType.USER_VARIABLE) {
            scope = SetScope.USER;
            name = userVariableName();
            state = State.EQUALS;
            return FeatureScanner.ROLE_ASSIGN_TARGET;
        }
        if (t == TokenType.SYSTEM_VARIABLE) {
            systemVariable();
            state = State.EQUALS;
            return FeatureScanner.ROLE_ASSIGN_TARGET;
        }
        if (t == TokenType.WORD || t == TokenType.QUOTED_IDENTIFIER) {
            scope = sticky;
            nameStart = s.start(0);
            nameEnd = s.end(0);
            state = State.NAME;
            return 0;
        }
        unparsed();
        return 0;
    }

    private int modifier(SetScope scope) {
        sticky = scope;
        modifier = scope;
        return 0;
    }

    /** NAMES, CHARACTER SET, TRANSACTION and ROLE; the last two take a comma-separated list. */
    private int special(SetScope scope, String name, int skipTokens) {
        this.scope = scope;
        this.name = name;
        skip = skipTokens;
        startValue();
        listValue = name.equals("TRANSACTION") || name.equals("ROLE");
        return 0;
    }

    /** A dotted name such as {@code default.key_buffer_size}, up to its {@code =}. */
    private int name() {
        TokenType t = s.type(0);
        if (t == TokenType.DOT || ((t == TokenType.WORD || t == TokenType.QUOTED_IDENTIFIER)
                && s.prevType() == TokenType.DOT)) {
            nameEnd = s.end(0);
            return 0;
        }
        name = unquote(s.text().subSequence(nameStart, nameEnd).toString()).toLowerCase(Locale.ROOT);
        return equals();
    }

    private int equals() {
        if (s.isOperator(0, '=') || s.type(0) == TokenType.ASSIGN) {
            startValue();
        } else {
            unparsed();
        }
        return 0;
    }

    private void startValue() {
        state = State.VALUE;
        valueStart = -1;
        replayable = true;
        modifier = null;
        listValue = false;
    }

    private int value(int depth) {
        if (skip > 0) {
            skip--;
            return 0;
        }
        TokenType t = s.type(0);
        if (t == TokenType.COMMA && depth == 0 && !listValue) {
            complete();
            state = state == State.DONE ? State.DONE : State.TARGET;
            return 0;
        }
        if (valueStart < 0) {
            valueStart = s.start(0);
        }
        valueEnd = s.end(0);
        if (t == TokenType.USER_VARIABLE || t == TokenType.SYSTEM_VARIABLE || t == TokenType.LEFT_PAREN
                || t == TokenType.PLACEHOLDER || s.is(0, Keyword.SELECT)) {
            replayable = false;
        }
        return 0;
    }

    private void complete() {
        if (valueStart < 0) {
            unparsed();
            return;
        }
        String value = s.text().subSequence(valueStart, valueEnd).toString();
        assignments.add(new SetAssignment(scope, name, value, replayable));
        switch (scope) {
            case USER -> findings.add(SessionEffect.USER_VARIABLE_WRITE);
            case NEXT_TRANSACTION -> findings.add(SessionEffect.UNREPLAYABLE_VARIABLE);
            case SESSION -> session(value);
            default -> { }
        }
    }

    private void session(String value) {
        if (name.equals("ROLE")) {
            findings.add(SessionEffect.ROLE_SET);
        } else if (UNREPLAYABLE.contains(name)) {
            findings.add(SessionEffect.UNREPLAYABLE_VARIABLE);
        } else if (name.equals("autocommit")) {
            String v = unquote(value).trim().toUpperCase(Locale.ROOT);
            implicitCommit |= v.equals("1") || v.equals("ON") || v.equals("TRUE");
        }
    }

    private void unparsed() {
        findings.add(SessionEffect.UNREPLAYABLE_VARIABLE);
        state = State.DONE;
    }

    private String userVariableName() {
        String token = s.string(0);
        return unquote(token.substring(1)).toLowerCase(Locale.ROOT);
    }

    /** {@code @@x}, {@code @@session.x}, {@code @@global.x}, {@code @@`x`}. */
    private void systemVariable() {
        String token = s.string(0).substring(2);
        int dot = token.indexOf('.');
        SetScope explicit = null;
        if (dot > 0) {
            explicit = switch (token.substring(0, dot).toUpperCase(Locale.ROOT)) {
                case "GLOBAL" -> SetScope.GLOBAL;
                case "SESSION", "LOCAL" -> SetScope.SESSION;
                case "PERSIST" -> SetScope.PERSIST;
                case "PERSIST_ONLY" -> SetScope.PERSIST_ONLY;
                default -> null;
            };
        }
        scope = explicit != null ? explicit : SetScope.SESSION;
        name = unquote(explicit != null ? token.substring(dot + 1) : token).toLowerCase(Locale.ROOT);
    }

    /** Removes one level of quotes ({@code `x`}, {@code 'x'}, {@code "x"}) and undoubles inner ones. */
    static String unquote(String text) {
        if (text.length() >= 2) {
            char q = text.charAt(0);
            if ((q == '`' || q == '\'' || q == '"') && text.charAt(text.length() - 1) == q) {
                String doubled = String.valueOf(q) + q;
                return text.substring(1, text.length() - 1).replace(doubled, String.valueOf(q));
            }
        }
        return text;
    }
}
