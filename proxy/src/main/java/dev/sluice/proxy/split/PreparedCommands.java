package dev.sluice.proxy.split;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.packet.ComStmtExecute;
import dev.sluice.proxy.backend.TrackedConnection;
import dev.sluice.proxy.command.OwnAnswer;
import dev.sluice.proxy.command.Replies;
import io.netty.buffer.ByteBuf;

/**
 * COM_STMT_EXECUTE, FETCH, SEND_LONG_DATA and RESET in split mode: they name a statement by the
 * proxy's id, which finds its SQL and route; what the server would answer for an id it does not
 * know, or a reset of a statement prepared nowhere yet, is answered here.
 */
final class PreparedCommands {

    private PreparedCommands() {
    }

    static void dispatch(int code, ByteBuf frame, SplitState state, SplitPath path) {
        ProxyStatement statement = state.statements.lookup(frame);
        if (statement == null && code == Commands.COM_STMT_SEND_LONG_DATA) {
            // It has no response, not even an error: the server drops it too.
            frame.release();
            return;
        }
        if (statement == null) {
            String message = "Unknown prepared statement handler (" + SplitStatements.idOf(frame) + ") given to "
                    + serverFunction(code);
            frame.release();
            path.reply(OwnAnswer.error(Replies.UNKNOWN_STATEMENT, "HY000", message));
            return;
        }
        Binding binding = state.binding;
        if (code == Commands.COM_STMT_RESET
                && (binding.connection() == null || statement.backendId(binding.connection()) == null)) {
            // Nothing of it lives on a connection: nothing to reset.
            frame.release();
            path.reply(OwnAnswer.OK);
            return;
        }
        if (code == Commands.COM_STMT_SEND_LONG_DATA) {
            binding.pin(PinReason.LONG_DATA);
        }
        if (opensCursor(code, frame) && !binding.inTransaction()) {
            TrackedConnection bound = binding.connection();
            if (bound != null && !bound.backend().isPrimary()) {
                binding.releaseUnlessTied();
            }
            path.route(new SplitCommand(code, frame, statement.route.onPrimary(), statement));
            return;
        }
        path.route(new SplitCommand(code, frame, statement.route, statement));
    }

    /** The name the server's ER_UNKNOWN_STMT_HANDLER gives each command (its function's). */
    private static String serverFunction(int code) {
        return switch (code) {
            case Commands.COM_STMT_FETCH -> "mysqld_stmt_fetch";
            case Commands.COM_STMT_RESET -> "mysqld_stmt_reset";
            default -> "mysqld_stmt_execute";
        };
    }

    /**
     * A COM_STMT_EXECUTE that asks for a cursor. Outside a transaction it runs on the primary: the
     * cursor ties the session to its connection until it is read to its end, and the session may
     * write before that (Connector/J leaves a cursor closed early open until the statement runs again).
     */
    private static boolean opensCursor(int code, ByteBuf frame) {
        return code == Commands.COM_STMT_EXECUTE && frame.readableBytes() > Packet.HEADER_SIZE + 5
                && (frame.getUnsignedByte(frame.readerIndex() + Packet.HEADER_SIZE + 5)
                & (ComStmtExecute.CURSOR_TYPE_READ_ONLY | ComStmtExecute.CURSOR_TYPE_FOR_UPDATE
                | ComStmtExecute.CURSOR_TYPE_SCROLLABLE)) != 0;
    }
}
