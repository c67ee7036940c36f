package dev.sluice.proxy.capture;

import dev.sluice.protocol.packet.ParameterType;
import java.util.List;

/**
 * A prepared statement as capture knows it in one session: its text, its parameter count, and the
 * parameter types of the last execute that sent them (clients send types once, then execute with
 * the new-params-bound flag clear). Touched on the session's event loop only.
 */
final class PreparedText {

    final byte[] sql;
    final boolean truncated;
    final int params;
    /** The prepare's charset, sql_mode and digest: its executes share them. */
    final DigestSource source;
    /** Replaced, never changed in place: captured statements keep the list they were given. */
    List<ParameterType> types;
    /** COM_STMT_SEND_LONG_DATA came since the last execute. */
    boolean longDataPending;

    PreparedText(byte[] sql, boolean truncated, int params, DigestSource source) {
        this.sql = sql;
        this.truncated = truncated;
        this.params = params;
        this.source = source;
    }
}
