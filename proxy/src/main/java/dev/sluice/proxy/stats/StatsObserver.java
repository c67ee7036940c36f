package dev.sluice.proxy.stats;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.observe.SessionInfo;
import dev.sluice.proxy.observe.StatementObserver;
import dev.sluice.proxy.sql.Digest;
import dev.sluice.proxy.sql.SqlMode;
import io.netty.buffer.ByteBuf;
import io.netty.util.collection.LongObjectHashMap;
import io.netty.util.concurrent.FastThreadLocal;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts what passes the proxy: per-backend errors by code, statements to the primary and to
 * replicas, pins by reason, per-session figures and query digests. Runs on the event loops: each
 * step is an adder increment or a lock-free lookup; the digest of a statement is its 64-bit
 * fingerprint, and only a statement never seen before is normalized to text.
 */
public final class StatsObserver implements StatementObserver {

    /** Longer statements are digested by their first 64 KiB (the text shown is cut far earlier anyway). */
    private static final int MAX_DIGESTED = 64 * 1024;
    private static final Object PREPARED = new Object();

    private static final FastThreadLocal<Digest> DIGEST = new FastThreadLocal<>() {
        @Override
        protected Digest initialValue() {
            return new Digest();
        }
    };
    private static final FastThreadLocal<byte[]> SCRATCH = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[4096];
        }
    };

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
    public Object onCommand(SessionInfo session, int command, ByteBuf frame) {
        if (!digests.enabled()) {
            return null;
        }
        return switch (command) {
            case Commands.COM_QUERY, Commands.COM_STMT_PREPARE -> digestOf(frame);
            case Commands.COM_STMT_EXECUTE -> prepared(session, false).get(statementId(frame));
            default -> null;
        };
    }

    @Override
    public void onResponse(SessionInfo session, Object token, int command, Backend backend, Response response,
                           long latencyNanos) {
        boolean error = response.isError();
        if (error) {
            backend.countError(response.errorCode());
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
        if (!(token instanceof DigestStats digest)) {
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
            prepared(session, false).remove(statementId(frame));
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

    private DigestStats digestOf(ByteBuf frame) {
        int length = Math.min(MAX_DIGESTED, RawPacketDecoder.payloadLength(frame) - 1);
        if (length <= 0) {
            return null;
        }
        int offset = frame.readerIndex() + Packet.HEADER_SIZE + 1;
        byte[] sql;
        int start;
        if (frame.hasArray()) {
            sql = frame.array();
            start = frame.arrayOffset() + offset;
        } else {
            sql = SCRATCH.get();
            if (sql.length < length) {
                sql = new byte[Math.max(length, sql.length * 2)];
                SCRATCH.set(sql);
            }
            frame.getBytes(offset, sql, 0, length);
            start = 0;
        }
        Digest digest = DIGEST.get();
        long fingerprint = digest.fingerprint(sql, start, length, StandardCharsets.UTF_8, SqlMode.DEFAULT);
        DigestStats found = digests.find(fingerprint);
        if (found != null) {
            return found;
        }
        String text = digest.normalize(sql, start, length, StandardCharsets.UTF_8, SqlMode.DEFAULT);
        return digests.add(fingerprint, text, System.currentTimeMillis());
    }

    private static long statementId(ByteBuf frame) {
        return frame.getUnsignedIntLE(frame.readerIndex() + Packet.HEADER_SIZE + 1);
    }

    /**
     * The session's prepared statements by the id its COM_STMT_EXECUTE frames carry. An empty
     * shared map stands in until the session prepares something, so executes allocate nothing.
     */
    @SuppressWarnings("unchecked")
    private static LongObjectHashMap<DigestStats> prepared(SessionInfo session, boolean create) {
        Object found = session.attributes().get(PREPARED);
        if (found == null) {
            if (!create) {
                return EMPTY;
            }
            found = new LongObjectHashMap<DigestStats>();
            session.attributes().put(PREPARED, found);
        }
        return (LongObjectHashMap<DigestStats>) found;
    }

    private static final LongObjectHashMap<DigestStats> EMPTY = new LongObjectHashMap<>(1);
}
