package dev.sluice.proxy.backend;

import dev.sluice.protocol.checksum.AnswerChecksum;
import dev.sluice.protocol.response.Response;
import io.netty.buffer.ByteBuf;
import java.util.function.Consumer;

/**
 * A command sent to a backend whose response has not ended yet.
 *
 * @param listener where the response's bytes go, or null to swallow them (the proxy's own
 *                 commands: resets, schema changes)
 * @param onDone   called with the outcome once the response ends (may be null)
 * @param rows     for the proxy's own queries whose answer it reads: each row's payload (may be null)
 * @param answer   for a mirrored statement, what its response's packets feed (may be null)
 * @param scopedVariables for a SET STATEMENT ... FOR, the variables it sets for itself; else null
 */
record InFlight(int command, long startNanos, ResponseListener listener, Consumer<Response> onDone,
                Consumer<ByteBuf> rows, java.util.List<String> scopedVariables, AnswerChecksum answer) {

    InFlight(int command, long startNanos, ResponseListener listener, Consumer<Response> onDone) {
        this(command, startNanos, listener, onDone, null, null, null);
    }

    InFlight(int command, long startNanos, ResponseListener listener, Consumer<Response> onDone, Consumer<ByteBuf> rows) {
        this(command, startNanos, listener, onDone, rows, null, null);
    }
}
