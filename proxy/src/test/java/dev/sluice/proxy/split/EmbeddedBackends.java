package dev.sluice.proxy.split;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.TrackedConnection;
import dev.sluice.proxy.testing.Written;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;

/** What split-mode unit tests do with backend connections on {@link EmbeddedChannel}s. */
final class EmbeddedBackends {

    private EmbeddedBackends() {
    }

    /** What the proxy wrote to the connection's server since last asked, read and released. */
    static byte[] sent(TrackedConnection connection) {
        return Written.drain((EmbeddedChannel) connection.channel());
    }

    /** The server's {@code response} arrives on the connection. */
    static void answer(TrackedConnection connection, byte[] response) {
        ((EmbeddedChannel) connection.channel()).writeInbound(Unpooled.wrappedBuffer(response));
    }

    static Backend backend(String name, BackendConfig.Role role) {
        return new Backend(new BackendConfig(name, new HostPort("127.0.0.1", 3306), role, 1, 10));
    }
}
