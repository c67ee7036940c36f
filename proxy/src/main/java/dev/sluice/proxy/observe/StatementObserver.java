package dev.sluice.proxy.observe;

import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.backend.Backend;
import io.netty.buffer.ByteBuf;

/**
 * Sees every client statement on its way: stats, digests and capture hang off this. All methods
 * run on the session's event loop: they must be quick and must never block (hand heavy work to
 * another thread through a bounded queue).
 */
public interface StatementObserver {

    StatementObserver NONE = new StatementObserver() {
    };

    default void onSessionStart(SessionInfo session) {
    }

    default void onSessionEnd(SessionInfo session) {
    }

    /**
     * A client command is about to go to a backend. {@code frame} is the whole packet (4-byte
     * header, then the command byte): read it, never retain or release it. For COM_QUERY and
     * COM_STMT_PREPARE, {@code sql} is the statement with its charset, sql_mode and digest (the one
     * routing used); null for other commands. Both are valid during this call only. The return
     * value comes back in {@link #onResponse}; null when nothing needs to.
     */
    default Object onCommand(SessionInfo session, int command, ByteBuf frame, StatementContext sql) {
        return null;
    }

    /** The response to a command ended (ERR included). {@code replica}: it ran on a replica. */
    default void onResponse(SessionInfo session, Object token, int command, Backend backend, Response response,
                            long latencyNanos) {
    }

    /** A command that gets no response (COM_STMT_CLOSE, COM_STMT_SEND_LONG_DATA) was sent. */
    default void onNoResponseCommand(SessionInfo session, int command, ByteBuf frame) {
    }

    /** A split-mode session started holding its connection for this reason. */
    default void onPinned(SessionInfo session, String reason) {
    }
}
