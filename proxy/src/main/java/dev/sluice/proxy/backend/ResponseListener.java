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

    /** An OK in the response reported session state changes (split mode, where they are tracked). */
    default void onSessionState(java.util.List<dev.sluice.protocol.packet.SessionStateChange> changes) {
    }
}
