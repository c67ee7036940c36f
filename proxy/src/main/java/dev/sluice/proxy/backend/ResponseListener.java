package dev.sluice.proxy.backend;

import dev.sluice.protocol.response.Response;
import io.netty.buffer.ByteBuf;

/** Receives a backend's responses to the commands a client session sent through it. */
public interface ResponseListener {

    /** Response bytes, as they arrive, to pass on unchanged; the listener owns (releases) them. */
    void onResponseBytes(ByteBuf bytes);

    /** The end of a batch of bytes: a good moment to flush. */
    void onReadComplete();

    /** One response ended. */
    void onResponse(int command, Response response, long latencyNanos);

    /** The backend connection failed or closed while the session used it. */
    void onBackendLost(String reason);

    /**
     * An OK in the response reported session state changes (split mode, where they are tracked).
     * {@code restored}: variables a SET STATEMENT ... FOR before it on this connection set for
     * itself; the server reports them again in the next OK, back at their value, with the
     * state-change flag (empty when none were pending).
     */
    default void onSessionState(java.util.List<dev.sluice.protocol.packet.SessionStateChange> changes,
                                java.util.Set<String> restored) {
    }
}
