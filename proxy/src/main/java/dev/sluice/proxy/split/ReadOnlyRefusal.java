package dev.sluice.proxy.split;

import dev.sluice.protocol.frame.Packet;
import dev.sluice.proxy.backend.Backend;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;

/**
 * A write refused as read_only (ER_OPTION_PREVENTS_STATEMENT, 1290) by a {@code role: auto}
 * backend the proxy still took for the primary: the DBA (or orchestrator) has just made it a
 * replica. An autocommit statement refused so did not run (the refusal comes before it does
 * anything, and nothing of a multi-statement runs after its first fails), so the refusal is held
 * back from the client and the statement goes to the next primary. A fixed {@code role: primary}
 * is what the config says it is: its refusals reach the client as they are.
 */
final class ReadOnlyRefusal {

    static final int OPTION_PREVENTS_STATEMENT = 1290;
    /** A backend that says read_only is off but keeps refusing writes must not keep a statement going round. */
    private static final int MAX_RETRIES = 3;
    private static final int ERR_HEADER = 0xFF;

    private CompositeByteBuf held;
    private int retries;
    /** The statement in flight may run again elsewhere if it is refused so. */
    private boolean mayRetry;

    /** A new statement: it has not been refused yet. */
    void reset() {
        retries = 0;
    }

    /**
     * A statement goes out to {@code backend}; {@code mayRunAgain}: a write of its own (autocommit,
     * nothing tied to its connection) that could run on another connection.
     */
    void sent(boolean mayRunAgain, Backend backend) {
        mayRetry = mayRunAgain && retries < MAX_RETRIES && backend.config().isAuto();
    }

    /**
     * Whether these response bytes are held back: the {@code first} bytes of the response to a
     * statement that may run again, and an ERR 1290; or bytes of a response already held.
     */
    boolean hold(ByteBuf bytes, boolean first) {
        if (held == null && !(first && mayRetry && isReadOnlyRefusal(bytes))) {
            return false;
        }
        if (held == null) {
            held = bytes.alloc().compositeBuffer(Integer.MAX_VALUE);
        }
        held.addComponent(true, bytes);
        return true;
    }

    boolean holding() {
        return held != null;
    }

    /** The held refusal is dropped: the statement runs again elsewhere. */
    void retried() {
        retries++;
        release();
    }

    /** The held bytes, for the client after all; null when none are held. */
    ByteBuf take() {
        ByteBuf bytes = held;
        held = null;
        return bytes;
    }

    void release() {
        if (held != null) {
            held.release();
            held = null;
        }
    }

    private static boolean isReadOnlyRefusal(ByteBuf bytes) {
        int at = bytes.readerIndex() + Packet.HEADER_SIZE;
        return bytes.readableBytes() >= Packet.HEADER_SIZE + 3 && bytes.getUnsignedByte(at) == ERR_HEADER
                && bytes.getUnsignedShortLE(at + 1) == OPTION_PREVENTS_STATEMENT;
    }
}
