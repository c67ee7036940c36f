package dev.sluice.proxy.backend;

import dev.sluice.protocol.response.Response;
import io.netty.buffer.ByteBuf;

/**
 * The listener of a connection that runs only the proxy's own commands, whose answers go to their
 * own callbacks: all it hears is that the connection was lost.
 */
@FunctionalInterface
public interface LossListener extends ResponseListener {

    @Override
    default void onResponseBytes(ByteBuf bytes) {
        bytes.release();
    }

    @Override
    default void onReadComplete() {
    }

    @Override
    default void onResponse(int command, Response response, long latencyNanos) {
    }
}
