package dev.sluice.proxy.backend;

import io.netty.channel.Channel;

/**
 * A session-mode backend connection: one client session's for its whole life, its responses
 * relayed as they arrive, whatever their cuts, and nothing of the session's state tracked (the
 * client and the server keep it between them).
 */
public final class RelayedConnection extends BackendConnection {

    /** OK, ERR, EOF, column count and prepare-OK all fit; longer packets are rows or data. */
    private static final int INSPECT_LIMIT = 1024;

    public RelayedConnection(Channel channel, Backend backend, BackendIdentity identity, String schema) {
        super(channel, backend, identity, schema, INSPECT_LIMIT);
    }
}
