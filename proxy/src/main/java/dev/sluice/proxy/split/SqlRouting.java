package dev.sluice.proxy.split;

import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.config.RoutingRule;
import dev.sluice.proxy.backend.SessionVariables;
import dev.sluice.proxy.observe.StatementContext;
import dev.sluice.proxy.sql.Classification;
import dev.sluice.proxy.sql.Digest;
import dev.sluice.proxy.sql.InsertLiterals;
import dev.sluice.proxy.sql.RoutingHint;
import dev.sluice.proxy.sql.SessionEffect;
import dev.sluice.proxy.sql.SetAssignment;
import dev.sluice.proxy.sql.SetScope;
import dev.sluice.proxy.sql.StatementKind;
import dev.sluice.proxy.sql.TransactionEffect;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Turns the SQL classifier's findings into routing: where a statement may run, which state it
 * ties to its connection, which it releases.
 */
final class SqlRouting {

    private SqlRouting() {
    }

    /**
     * Routing for the SQL of a COM_QUERY or COM_STMT_PREPARE frame. {@code sql} is reset to the
     * frame with the session's character set and sql_mode: the classifier reads the text with
     * them, and a digest a rule asks for is the one the observers get.
     */
    static RoutedStatement forQuery(ByteBuf frame, SessionVariables session, List<RoutingRule> rules,
                                    StatementContext sql) {
        sql.reset(frame, session.variable("character_set_client"), session.variable("sql_mode"));
        int length = RawPacketDecoder.payloadLength(frame) - 1;
        int offset = frame.readerIndex() + Packet.HEADER_SIZE + 1;
        byte[] bytes;
        int start;
        if (frame.hasArray()) {
            bytes = frame.array();
            start = frame.arrayOffset() + offset;
        } else {
            bytes = ByteBufUtil.getBytes(frame, offset, length, false);
            start = 0;
        }
        Classification classification = sql.classifier().classify(bytes, start, length, sql.charset(), sql.sqlMode());
        sql.classification(classification);
        RoutingRule.Route ruled = null;
        if (classification.hint() == RoutingHint.NONE && !rules.isEmpty()) {
            ruled = firstMatch(rules, bytes, start, length, sql);
        }
        RoutedStatement routed = route(classification, ruled);
        if (classification.kind() == StatementKind.INSERT || classification.kind() == StatementKind.REPLACE) {
            // Read again for its literals only when it may report an id: LastInsertId needs them.
            routed = routed.withInsertLiterals(InsertLiterals.read(bytes, start, length, sql.charset(), sql.sqlMode()));
        }
        return routed;
    }

    /** The route of the first rule the statement matches (by text or by digest), or null. */
    private static RoutingRule.Route firstMatch(List<RoutingRule> rules, byte[] bytes, int start, int length,
                                                StatementContext sql) {
        String text = null;
        String digest = null;
        for (RoutingRule rule : rules) {
            if (rule.match() != null) {
                if (text == null) {
                    text = new String(bytes, start, length, sql.charset());
                }
                if (rule.match().matcher(text).find()) {
                    return rule.route();
                }
            } else {
                if (digest == null) {
                    digest = Digest.hex(sql.digest());
                }
                if (rule.digest().equals(digest)) {
                    return rule.route();
                }
            }
        }
        return null;
    }

    /** The special forms (SET NAMES, SET TRANSACTION...) name no variable; user variables are not the server's. */
    private static final Set<String> NOT_VARIABLES = Set.of("names", "character set", "charset", "transaction", "role");
    private static final java.util.regex.Pattern PLAIN_NAME = java.util.regex.Pattern.compile("[a-z0-9_]+");

    private static List<String> sessionVariablesSet(Classification c) {
        if (c.setAssignments().isEmpty()) {
            return List.of();
        }
        List<String> names = new java.util.ArrayList<>();
        for (SetAssignment assignment : c.setAssignments()) {
            String name = assignment.name().toLowerCase(java.util.Locale.ROOT);
            // Only plain names: they are written into the read-back statement as they are.
            if (assignment.scope() == SetScope.SESSION && !NOT_VARIABLES.contains(name)
                    && PLAIN_NAME.matcher(name).matches() && SessionVariables.replayable(name) && !names.contains(name)) {
                names.add(name);
            }
        }
        return names;
    }

    /**
     * SHOW WARNINGS and SHOW ERRORS leave the diagnostics they show; so does a read that names no
     * table (Connector/J's SELECT @@session.transaction_read_only before it refuses a write
     * itself), unless it raises its own. Such a read may run on the connection that holds them;
     * one that makes state there or must run on the primary goes where it would go.
     */
    private static boolean keepsDiagnostics(Classification c, Target target, Set<PinReason> pins, boolean write) {
        return c.kind() == StatementKind.SHOW && c.has(SessionEffect.DIAGNOSTICS_READ)
                || c.tableFree() && target == Target.REPLICA && pins.isEmpty() && !write;
    }

    static RoutedStatement route(Classification c) {
        return route(c, null);
    }

    /** Hints in comments win over rules, rules over the classifier. */
    static RoutedStatement route(Classification c, RoutingRule.Route ruled) {
        Set<PinReason> pins = EnumSet.noneOf(PinReason.class);
        Set<PinReason> releases = EnumSet.noneOf(PinReason.class);
        boolean readsConnectionState = false;
        for (SessionEffect effect : c.sessionEffects()) {
            switch (effect) {
                case TEMPORARY_TABLE_CREATE -> pins.add(PinReason.TEMPORARY_TABLE);
                case USER_LOCK_ACQUIRE -> pins.add(PinReason.USER_LOCK);
                case TABLE_LOCK -> pins.add(PinReason.LOCK_TABLES);
                case TABLE_UNLOCK -> releases.add(PinReason.LOCK_TABLES);
                case USER_VARIABLE_WRITE -> pins.add(PinReason.USER_VARIABLE);
                case LAST_INSERT_ID_SET -> pins.add(PinReason.LAST_INSERT_ID);
                case SEQUENCE_NEXT -> pins.add(PinReason.SEQUENCE);
                case SQL_PREPARE -> pins.add(PinReason.SQL_PREPARED_STATEMENT);
                case HANDLER_OPEN -> pins.add(PinReason.HANDLER);
                case XA_BEGIN -> pins.add(PinReason.XA_TRANSACTION);
                case XA_FINISH -> releases.add(PinReason.XA_TRANSACTION);
                case UNREPLAYABLE_VARIABLE -> pins.add(PinReason.UNREPLAYABLE_VARIABLE);
                case ROLE_SET -> pins.add(PinReason.ROLE);
                // Each needs the connection an earlier statement left something on: where the
                // session is bound it runs there anyway; otherwise the primary is the best guess.
                case USER_VARIABLE_READ, FOUND_ROWS_READ, LAST_INSERT_ID_READ, ROW_COUNT_READ, DIAGNOSTICS_READ,
                     CONNECTION_ID_READ, SEQUENCE_LAST_READ, SQL_EXECUTE, HANDLER_READ, XA_CONTINUE ->
                        readsConnectionState = true;
                // Temporary tables, user locks, SQL prepared statements and handlers may outlive one
                // drop or release (there may be several): those pins stay until the session resets.
                default -> {
                }
            }
        }
        if (c.kind() == StatementKind.MULTI && c.setStatementFor()) {
            // Which of the multi-statement's reports are the SET STATEMENT's own, to be put back
            // after it, is not told: the session stays where they are true.
            pins.add(PinReason.UNTRACKED_STATE);
        }
        boolean readOnlyTransaction = c.transactionEffect() == TransactionEffect.BEGIN_READ_ONLY;
        // A SET of replayable session variables may run anywhere: its effect is tracked and replayed
        // wherever the session's next statement goes, so it need not wait for (or on) the primary.
        boolean plainSet = c.kind() == StatementKind.SET && c.sessionEffects().isEmpty();
        Target target = switch (c.hint()) {
            case PRIMARY -> Target.PRIMARY;
            case REPLICA -> Target.REPLICA;
            case NONE -> ruled != null ? (ruled == RoutingRule.Route.REPLICA ? Target.REPLICA : Target.PRIMARY)
                    : (c.readOnly() || readOnlyTransaction || plainSet) && !readsConnectionState
                            ? Target.REPLICA : Target.PRIMARY;
        };
        // A SET or USE says in its text all it changes, which the server then reports; any other
        // statement (a CALL above all) may change what no report names, user variables say.
        boolean effectsInText = c.kind() == StatementKind.SET || c.kind() == StatementKind.USE
                || (c.setStatementFor() && c.noWrites());
        boolean changesRows = switch (c.kind()) {
            case INSERT, UPDATE, DELETE, REPLACE, LOAD -> true;
            default -> false;
        };
        boolean commitsFirst = switch (c.kind()) {
            case DDL, ACCOUNT, LOCK_TABLES, BEGIN, ADMIN, FLUSH -> !c.has(SessionEffect.TEMPORARY_TABLE_CREATE)
                    && !c.has(SessionEffect.TEMPORARY_TABLE_DROP);
            default -> false;
        };
        boolean write = !c.noWrites() && !readOnlyTransaction && !plainSet;
        boolean savepoint = switch (c.kind()) {
            case SAVEPOINT, RELEASE_SAVEPOINT, ROLLBACK_TO_SAVEPOINT -> true;
            default -> false;
        };
        // What may write and has no answer of its own in a replica's READ ONLY transaction (a CALL,
        // a multi-statement, a function) would get the replica's read_only error, not the primary's
        // READ ONLY one; state made there would tie the session to the replica.
        boolean needsPrimaryTransaction = target == Target.PRIMARY && (!pins.isEmpty()
                || (write && !changesRows && !commitsFirst && !savepoint
                        && c.transactionEffect() == TransactionEffect.NONE));
        return new RoutedStatement(target, pins, releases, readOnlyTransaction, c.has(SessionEffect.FOUND_ROWS_CALC),
                write, readsConnectionState, effectsInText, changesRows,
                c.has(SessionEffect.LAST_INSERT_ID_READ), c.kind() == StatementKind.CALL,
                c.scopedVariables(), commitsFirst, sessionVariablesSet(c),
                keepsDiagnostics(c, target, pins, write), c.kind() == StatementKind.MULTI,
                savepoint, needsPrimaryTransaction, c.has(SessionEffect.DIAGNOSTICS_READ),
                c.tableFree(), null);
    }
}
