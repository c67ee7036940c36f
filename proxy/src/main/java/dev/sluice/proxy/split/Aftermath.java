package dev.sluice.proxy.split;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.backend.Backend;
import io.netty.buffer.ByteBuf;

/**
 * What a statement's response changes in its split session: a prepared statement now exists,
 * the connection is held or pinned for something, LAST_INSERT_ID() may have moved, an error to
 * carry to the primary, a READ ONLY transaction's savepoints, and read-your-writes' last write.
 */
final class Aftermath {

    private Aftermath() {
    }

    /** {@code ranOn}: the backend the statement ran on. */
    static void record(SplitState state, SplitCommand command, Backend ranOn, Response response) {
        Binding binding = state.binding;
        boolean prepared = command.code() == Commands.COM_STMT_PREPARE && response.kind() == Response.Kind.PREPARE_OK
                && state.statements.registerPrepared(command.frame(), command.route(), response, binding.connection())
                != null;
        binding.afterResponse(command.code(), command.route(), command.statement(), response, prepared);
        state.lastInsertId.afterResponse(command.route(), response, binding.connection(), binding.holdCount());
        if (!command.route().tableFree() || response.isError() || response.warnings() > 0) {
            state.foreignDiagnostics = false;
        }
        boolean onReplica = ranOn != null && !ranOn.isPrimary();
        state.carriedError.afterResponse(response, onReplica, command.route().tableFree());
        state.replicaTransaction.afterStatement(binding.inTransaction() && onReplica, command.route(),
                command.route().savepoint() && command.code() == Commands.COM_QUERY
                        ? queryText(state, command.frame()) : null, response.isError());
        if (!response.isError() && command.route().write() && ranOn != null && ranOn.isPrimary()) {
            state.readYourWrites.wrote(System.nanoTime());
        }
    }

    /** The SQL of a COM_QUERY frame, in the session's character set. */
    private static String queryText(SplitState state, ByteBuf frame) {
        int offset = frame.readerIndex() + Packet.HEADER_SIZE + 1;
        return frame.toString(offset, frame.writerIndex() - offset, state.sql.charset());
    }
}
