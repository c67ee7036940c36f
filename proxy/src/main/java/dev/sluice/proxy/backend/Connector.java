package dev.sluice.proxy.backend;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;

/** Opens backend connections logged in as asked: what a pool grows by. */
public interface Connector {

    /** Connects on {@code loop} and logs in; the future fails with a {@link BackendLoginException}. */
    Future<BackendConnection> connect(Backend backend, LoginRequest request, EventLoop loop);
}
