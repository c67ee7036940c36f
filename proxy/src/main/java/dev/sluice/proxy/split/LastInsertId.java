package dev.sluice.proxy.split;

import dev.sluice.protocol.response.Response;

/**
 * LAST_INSERT_ID() belongs to the session, but a split session's statements run on many
 * connections, each holding the value its own last insert left (often another session's). The
 * session's value is kept from the OKs of its statements and set on the connection before a
 * statement that reads it, unless that connection is the one that produced it, held since.
 *
 * <p>The OK of an insert that gave its auto-increment column an explicit value (or of an ON
 * DUPLICATE KEY UPDATE that updated a row) reports that row's id while LAST_INSERT_ID() keeps the
 * old one; the proxy takes the reported value, as ProxySQL does, unless the connection already had
 * the session's value: then what the connection says is the session's.
 */
final class LastInsertId {

    private static final long NONE = -1;

    private long value;
    /** The binding's hold count while the connection that has {@link #value} was held. */
    private long heldAt = NONE;

    /** The session starts over (COM_RESET_CONNECTION, COM_CHANGE_USER): the server's value is 0 again. */
    void reset() {
        value = 0;
        heldAt = NONE;
    }

    void afterResponse(RoutedStatement route, Response response, long holdCount) {
        if (response.lastInsertId() > 0) {
            value = response.lastInsertId();
            // A generated id is on the connection now; an explicit one, or the id of the row an ON
            // DUPLICATE KEY UPDATE updated, is not: the connection keeps what it had, which is the
            // session's only if it already held the session's value. Else it may be another session's.
            if (heldAt != holdCount) {
                heldAt = NONE;
            }
        } else if (!response.isError() && route.pins().contains(PinReason.LAST_INSERT_ID)) {
            // LAST_INSERT_ID(expr): the value is in a result the proxy does not read, but the session is
            // pinned to the connection that has it.
            heldAt = holdCount;
        }
    }

    /**
     * The SET that gives the connection about to run {@code route} the session's value, or null
     * when the statement does not read it or the connection already has it.
     */
    String restoreBefore(RoutedStatement route, long holdCount) {
        if (!route.readsLastInsertId() || heldAt == holdCount) {
            return null;
        }
        heldAt = holdCount;
        return "last_insert_id = " + Long.toUnsignedString(value);
    }
}
