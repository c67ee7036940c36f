package dev.sluice.proxy.session;

import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The proxy's client connections: counted against max_client_connections from the moment they
 * are accepted, grouped so that shutdown reaches them all, and whether shutdown has begun (a
 * session then ends once it is idle).
 */
public final class ClientConnections {

    private final ChannelGroup channels = new DefaultChannelGroup("clients", GlobalEventExecutor.INSTANCE);
    private final AtomicInteger count = new AtomicInteger();
    private volatile boolean shuttingDown;

    public ChannelGroup channels() {
        return channels;
    }

    /** Open client connections, those refused at the gate included until they close. */
    public AtomicInteger count() {
        return count;
    }

    public boolean shuttingDown() {
        return shuttingDown;
    }

    public void shuttingDown(boolean value) {
        shuttingDown = value;
    }
}
