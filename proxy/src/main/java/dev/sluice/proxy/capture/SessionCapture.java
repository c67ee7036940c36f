package dev.sluice.proxy.capture;

import java.util.HashMap;
import java.util.Map;

/**
 * One session's capture state, kept in the session's attributes: whether it was sampled, whether
 * it logged in while capture ran and has had a line written yet, and its prepared statements by
 * the id the client uses. Touched on the session's event loop only.
 */
final class SessionCapture {

    /** MariaDB's COM_STMT_EXECUTE id for "the statement this connection prepared last". */
    static final long LAST_PREPARED = 0xFFFF_FFFFL;
    /** A client that never closes its statements must not grow this without bound. */
    static final int MAX_STATEMENTS = 16_384;

    final boolean sampled;
    /** The session logged in while this capture ran (rather than before it started). */
    final boolean login;
    /** A line of this session went to the writer: its {@link SessionState} is written. */
    boolean described;
    private final Map<Long, PreparedText> statements = new HashMap<>();
    private PreparedText lastPrepared;

    SessionCapture(boolean sampled, boolean login) {
        this.sampled = sampled;
        this.login = login;
    }

    PreparedText statement(long id) {
        return id == LAST_PREPARED ? lastPrepared : statements.get(id);
    }

    void prepared(long id, PreparedText statement) {
        if (statements.size() >= MAX_STATEMENTS && !statements.containsKey(id)) {
            return;
        }
        statements.put(id, statement);
        lastPrepared = statement;
    }

    void closed(long id) {
        PreparedText removed = id == LAST_PREPARED ? lastPrepared : statements.remove(id);
        if (id == LAST_PREPARED && removed != null) {
            statements.values().remove(removed);
        }
        if (removed != null && removed == lastPrepared) {
            lastPrepared = null;
        }
    }
}
