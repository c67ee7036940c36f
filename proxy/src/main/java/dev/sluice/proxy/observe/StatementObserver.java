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
     * A client command is about to go to a backend: {@code statement} is the command (its frame
     * valid during this call only), for COM_QUERY and COM_STMT_PREPARE with its charset, sql_mode
     * and digest (the one routing used). What an observer keeps of it for the response goes in
     * the statement ({@link StatementContext#tally}, {@link StatementContext#copy}).
     */
    default void onCommand(SessionInfo session, StatementContext statement) {
    }

    /** The response to {@code statement} ended (ERR included), from {@code backend}. */
    default void onResponse(SessionInfo session, StatementContext statement, Backend backend, Response response,
                            long latencyNanos) {
    }

    /** A command that gets no response (COM_STMT_CLOSE, COM_STMT_SEND_LONG_DATA) was sent. */
    default void onNoResponseCommand(SessionInfo session, int command, ByteBuf frame) {
    }

    /** A split-mode session started holding its connection for this reason. */
    default void onPinned(SessionInfo session, String reason) {
    }
}
