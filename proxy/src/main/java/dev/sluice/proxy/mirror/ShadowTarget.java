package dev.sluice.proxy.mirror;

import dev.sluice.protocol.auth.ClientAuthOptions;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.probe.OwnConnection;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslContext;
import io.netty.resolver.AddressResolverGroup;
import io.netty.util.concurrent.Future;

/**
 * The shadow server and how to log into it: as the backends are logged into by the proxy itself
 * (tls.backend when on), with mirror.user or else the first user with a password.
 */
record ShadowTarget(Backend server, String user, byte[] password, SslContext tls, ClientAuthOptions authOptions,
                    Class<? extends Channel> channelType, int connectMillis, AddressResolverGroup<?> resolver) {

    Future<OwnConnection> connect(EventLoop loop) {
        return OwnConnection.open(server, user, password, tls, authOptions, loop, channelType, connectMillis, resolver);
    }

    String address() {
        return server.config().address().toString();
    }
}
