package dev.sluice.proxy.mirror;

import dev.sluice.config.MirrorConfig;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.observe.SessionInfo;
import dev.sluice.proxy.observe.StatementContext;
import dev.sluice.proxy.observe.StatementObserver;
import dev.sluice.proxy.sql.Classification;
import dev.sluice.proxy.sql.SetAssignment;
import dev.sluice.proxy.sql.SetScope;
import dev.sluice.proxy.sql.SqlCharsets;
import dev.sluice.proxy.sql.StatementKind;
import dev.sluice.proxy.sql.TransactionEffect;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The event-loop side of mirroring: follows each session's schema and session variables, picks
 * the statements to copy (reads, or all that leave nothing on the connection), gives each one a
 * checksum that its response's packets feed on their way to the client, and once the response
 * has ended offers the copy, with the client's answer and latency, to the queue without waiting.
 * Only COM_QUERY is copied: prepared statements are not.
 */
final class MirrorObserver implements StatementObserver {

    /** Longer statements are not copied: the queue's bytes are for many statements, not one. */
    static final int MAX_SQL_BYTES = 1 << 20;
    private static final Object KEY = MirrorObserver.class;
    /** Never carried to the shadow: transaction and account state, and what the shadow's own binary log keeps. */
    private static final Set<String> NOT_CARRIED = Set.of("transaction", "autocommit", "role", "sql_log_bin", "insert_id",
            "last_insert_id", "identity", "gtid_domain_id", "gtid_seq_no", "server_id", "pseudo_thread_id",
            "session_track_schema", "session_track_state_change", "session_track_system_variables",
            "session_track_transaction_info");
    /** Kinds never copied in {@code all}: they act on the connection or the transaction, or cannot run without a client's data. */
    private static final Set<StatementKind> NEVER = Set.of(StatementKind.EMPTY, StatementKind.SET, StatementKind.USE,
            StatementKind.BEGIN, StatementKind.COMMIT, StatementKind.ROLLBACK, StatementKind.ROLLBACK_TO_SAVEPOINT,
            StatementKind.SAVEPOINT, StatementKind.RELEASE_SAVEPOINT, StatementKind.LOAD, StatementKind.CALL,
            StatementKind.HANDLER, StatementKind.LOCK_TABLES, StatementKind.UNLOCK_TABLES, StatementKind.PREPARE,
            StatementKind.EXECUTE, StatementKind.DEALLOCATE, StatementKind.XA, StatementKind.KILL, StatementKind.MULTI,
            StatementKind.ACCOUNT);

    private final boolean all;
    /** The share of qualifying statements copied: a busy proxy mirrors a sample (see overhead.sh --mirror). */
    private final double sample;
    private final MirrorQueue queue;
    private final MirrorStats stats;

    MirrorObserver(MirrorConfig config, MirrorQueue queue, MirrorStats stats) {
        this.all = config.statements() == MirrorConfig.Statements.ALL;
        this.sample = config.sample();
        this.queue = queue;
        this.stats = stats;
    }

    @Override
    public void onSessionStart(SessionInfo session) {
        session(session);
    }

    @Override
    public void onCommand(SessionInfo session, StatementContext statement) {
        int command = statement.command();
        if (command != Commands.COM_QUERY && command != Commands.COM_INIT_DB) {
            return;
        }
        MirrorSession mirror = session(session);
        ByteBuf frame = statement.frame();
        int start = frame.readerIndex() + Packet.HEADER_SIZE + 1;
        int length = frame.writerIndex() - start;
        if (command == Commands.COM_INIT_DB) {
            statement.mirrored(new StateChange(mirror.state.withSchema(frame.toString(start, length, statement.charset())),
                    null));
            return;
        }
        if (length <= 0 || length > MAX_SQL_BYTES) {
            return;
        }
        // Split mode classified the statement already: its bytes are copied only for a statement that is mirrored.
        byte[] sql = null;
        Classification found = statement.classification();
        if (found == null) {
            sql = ByteBufUtil.getBytes(frame, start, length);
            found = statement.classifier().classify(sql, 0, sql.length, statement.charset(), statement.sqlMode());
        }
        StateChange change = stateChange(mirror, found);
        if (change != null) {
            statement.mirrored(change);
        } else if (mirror.unknown == null && copied(mirror, found)) {
            if (sql == null) {
                sql = ByteBufUtil.getBytes(frame, start, length);
            }
            long digest = statement.digest();
            String text = stats.knows(digest) ? null : statement.digestText();
            statement.mirrored(new MirrorCopy(session.sessionId(), digest, text, sql, statement.charset(), mirror.state));
        }
    }

    @Override
    public void onResponse(SessionInfo session, StatementContext statement, Backend backend, Response response,
                           long latencyNanos) {
        StatementContext.Mirrored kept = statement.mirrored();
        if (kept == null && !response.statusKnown()) {
            return;
        }
        MirrorSession mirror = session(session);
        if (response.statusKnown()) {
            mirror.inTransaction = ServerStatus.has(response.status(), ServerStatus.IN_TRANS);
        }
        if (kept instanceof StateChange change && !response.isError()) {
            if (change.after() != null) {
                mirror.state = change.after();
            } else {
                mirror.unknown = change.unknown();
            }
        } else if (kept instanceof MirrorCopy copy) {
            if (!copy.answer().done() || copy.answer().answer().uncomparable() != null) {
                stats.skipped();
                return;
            }
            copy.clientAnswer = copy.answer().answer();
            copy.clientNanos = latencyNanos;
            queue.offer(copy);
        }
    }

    /** The statement's effect on what the shadow must know, or null when it has none. */
    private static StateChange stateChange(MirrorSession mirror, Classification found) {
        if (found.kind() == StatementKind.USE && found.useSchema() != null) {
            return new StateChange(mirror.state.withSchema(found.useSchema()), null);
        }
        if (found.kind() != StatementKind.SET) {
            return null;
        }
        ShadowState after = mirror.state;
        for (SetAssignment set : found.setAssignments()) {
            String name = set.name().toLowerCase(Locale.ROOT);
            if (set.scope() != SetScope.SESSION || NOT_CARRIED.contains(name) || name.startsWith("wsrep_")) {
                continue;
            }
            if (!set.replayable()) {
                return new StateChange(null, "SET " + name + " to an expression");
            }
            after = after.with(name, set.value());
        }
        return after == mirror.state ? null : new StateChange(after, null);
    }

    private boolean copied(MirrorSession mirror, Classification found) {
        boolean qualifies = all ? !NEVER.contains(found.kind()) && found.sessionEffects().isEmpty()
                && found.transactionEffect() == TransactionEffect.NONE
                : found.readOnly() && !mirror.inTransaction;
        return qualifies && (sample >= 1 || ThreadLocalRandom.current().nextDouble() < sample);
    }

    private static MirrorSession session(SessionInfo session) {
        return (MirrorSession) session.attributes().computeIfAbsent(KEY, k -> {
            ShadowState state = ShadowState.NONE.withSchema(session.schema());
            int collation = session.loginCollation();
            return new MirrorSession(collation < 0 ? state : state.with("names", SqlCharsets.collationCharset(collation)));
        });
    }
}
