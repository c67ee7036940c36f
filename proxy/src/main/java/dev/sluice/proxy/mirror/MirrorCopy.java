package dev.sluice.proxy.mirror;

import dev.sluice.protocol.checksum.Answer;
import dev.sluice.protocol.checksum.AnswerChecksum;
import dev.sluice.proxy.observe.StatementContext;
import java.nio.charset.Charset;

/**
 * A copy of one client statement for the shadow: its SQL bytes as the client sent them, the
 * session state it ran in, its digest, and once its response has reached the client, the answer
 * the client got and how long it took. Made on the session's event loop; handed to the mirror's
 * thread through the queue, after which only that thread touches it.
 */
final class MirrorCopy implements StatementContext.Mirrored {

    /** What a queued copy holds besides its SQL, roughly: counted against the queue's bytes. */
    private static final int OVERHEAD = 160;

    final long sessionId;
    final long digest;
    /** The normalized text, when the mirror's table did not have the digest yet; else null. */
    final String digestText;
    final byte[] sql;
    final Charset charset;
    final ShadowState state;
    private final AnswerChecksum answer = new AnswerChecksum();
    Answer clientAnswer;
    long clientNanos;

    MirrorCopy(long sessionId, long digest, String digestText, byte[] sql, Charset charset, ShadowState state) {
        this.sessionId = sessionId;
        this.digest = digest;
        this.digestText = digestText;
        this.sql = sql;
        this.charset = charset;
        this.state = state;
    }

    @Override
    public AnswerChecksum answer() {
        return answer;
    }

    int weight() {
        return sql.length + OVERHEAD;
    }

    String text() {
        return new String(sql, charset);
    }
}
