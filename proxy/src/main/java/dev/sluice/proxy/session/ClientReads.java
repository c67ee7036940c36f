package dev.sluice.proxy.session;

import io.netty.channel.Channel;

/**
 * Whether a session reads its client, as the one answer to several reasons not to: commands
 * waiting in the session's queue, a backend that cannot take more bytes. The client's channel is
 * told only when the answer changes, so a session that is never held back never touches it.
 */
final class ClientReads {

    /** Commands wait in the session's queue (a command in progress, an answer of the proxy's own). */
    static final int QUEUED = 1;
    /** The backend connection the session writes to cannot take more bytes now. */
    static final int BACKEND = 2;

    private final Channel client;
    private int pausedBy;

    ClientReads(Channel client) {
        this.client = client;
    }

    void pause(int reason) {
        set(pausedBy | reason);
    }

    void resume(int reason) {
        set(pausedBy & ~reason);
    }

    private void set(int reasons) {
        boolean wasReading = pausedBy == 0;
        pausedBy = reasons;
        if (wasReading != (reasons == 0)) {
            client.config().setAutoRead(reasons == 0);
        }
    }
}
