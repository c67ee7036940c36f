package dev.sluice.proxy.stats;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.observe.SessionInfo;
import dev.sluice.proxy.observe.StatementContext;
import dev.sluice.proxy.observe.StatementObserver;
import io.netty.buffer.ByteBuf;
import io.netty.util.collection.LongObjectHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts what passes the proxy: per-backend errors by code, statements to the primary and to
 * replicas, pins by reason, per-session figures and query digests. Runs on the event loops: each
 * step is an adder increment or a lock-free lookup; the digest of a statement is its 64-bit
 * fingerprint, the one its {@link StatementContext} computed with the session's character set and
 * sql_mode (the one routing rules match), and only a statement never seen before is normalized to
 * text.
 */
public final class StatsObserver implements StatementObserver {

    private static final Object PREPARED = new Object();

    private final DigestTable digests;
    private final SessionRegistry sessions = new SessionRegistry();
    private final LongAdder toPrimary = new LongAdder();
    private final LongAdder toReplica = new LongAdder();
    private final LongAdder sessionsStarted = new LongAdder();
    private final Map<String, LongAdder> pins = new ConcurrentHashMap<>();

    public StatsObserver(DigestTable digests) {
        this.digests = digests;
    }

    public DigestTable digests() {
        return digests;
    }

    public SessionRegistry sessions() {
        return sessions;
    }

    public long statementsToPrimary() {
        return toPrimary.sum();
    }

    public long statementsToReplicas() {
        return toReplica.sum();
    }

    public long sessionsStarted() {
        return sessionsStarted.sum();
    }

    /** Times a session started holding its connection, by reason, since the start. */
    public Map<String, Long> pinsByReason() {
        Map<String, Long> copy = new java.util.TreeMap<>();
        pins.forEach((reason, count) -> copy.put(reason, count.sum()));
        return copy;
    }

    public void reset() {
        toPrimary.reset();
        toReplica.reset();
        sessionsStarted.reset();
        pins.values().forEach(LongAdder::reset);
        digests.reset();
    }

    @Override
    public void onSessionStart(SessionInfo session) {
        sessionsStarted.increment();
        sessions.started(session);
    }

    @Override
    public void onSessionEnd(SessionInfo session) {
        sessions.ended(session);
    }

    @Override
    public void onCommand(SessionInfo session, StatementContext statement) {
        if (!digests.enabled()) {
            return;
        }
        statement.tally(switch (statement.command()) {
            case Commands.COM_QUERY, Commands.COM_STMT_PREPARE -> digestOf(statement);
            case Commands.COM_STMT_EXECUTE -> preparedDigest(session, statementId(statement.frame()));
            default -> null;
        });
    }

    @Override
    public void onResponse(SessionInfo session, StatementContext statement, Backend backend, Response response,
                           long latencyNanos) {
        int command = statement.command();
        boolean error = response.isError();
        if (error) {
            backend.stats().countError(response.errorCode());
        }
        boolean primary = backend.isPrimary();
        (primary ? toPrimary : toReplica).increment();
        long now = System.currentTimeMillis();
        SessionRecord record = sessions.get(session);
        if (record != null) {
            record.statements++;
            if (primary) {
                record.toPrimary++;
            } else {
                record.toReplica++;
            }
            if (error) {
                record.errors++;
            }
            record.lastStatementMillis = now;
        }
        if (!(statement.tally() instanceof DigestStats digest)) {
            return;
        }
        if (command == Commands.COM_STMT_PREPARE) {
            if (response.kind() == Response.Kind.PREPARE_OK) {
                prepared(session, true).put(response.statementId(), digest);
            }
            return;
        }
        digest.record(latencyNanos, response.rows(), response.affectedRows(), error, now);
    }

    @Override
    public void onNoResponseCommand(SessionInfo session, int command, ByteBuf frame) {
        if (command == Commands.COM_STMT_CLOSE && RawPacketDecoder.payloadLength(frame) >= 5) {
            LongObjectHashMap<DigestStats> prepared = prepared(session, false);
            if (prepared != null) {
                prepared.remove(statementId(frame));
            }
        }
    }

    @Override
    public void onPinned(SessionInfo session, String reason) {
        LongAdder counter = pins.get(reason);
        if (counter == null) {
            counter = pins.computeIfAbsent(reason, r -> new LongAdder());
        }
        counter.increment();
    }

    /** Only a digest not kept yet costs its normalized text (the context computes it once). */
    private DigestStats digestOf(StatementContext sql) {
        if (sql.isEmpty()) {
            return null;
        }
        long fingerprint = sql.digest();
        DigestStats found = digests.find(fingerprint);
        if (found != null) {
            return found;
        }
        return digests.add(fingerprint, sql.digestText(), System.currentTimeMillis());
    }

    private static long statementId(ByteBuf frame) {
        return frame.getUnsignedIntLE(frame.readerIndex() + Packet.HEADER_SIZE + 1);
    }

    /** The digest of the statement the session prepared under {@code id}, or null (executes allocate nothing). */
    private static DigestStats preparedDigest(SessionInfo session, long id) {
        LongObjectHashMap<DigestStats> prepared = prepared(session, false);
        return prepared == null ? null : prepared.get(id);
    }

    /** The session's prepared statements by the id its COM_STMT_EXECUTE frames carry; null until it prepares one. */
    @SuppressWarnings("unchecked")
    private static LongObjectHashMap<DigestStats> prepared(SessionInfo session, boolean create) {
        Object found = session.attributes().get(PREPARED);
        if (found == null) {
            if (!create) {
                return null;
            }
            found = new LongObjectHashMap<DigestStats>();
            session.attributes().put(PREPARED, found);
        }
        return (LongObjectHashMap<DigestStats>) found;
    }
}
