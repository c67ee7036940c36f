package dev.sluice.proxy.client;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * Where a client connection really comes from, and the address it connected to. Directly, the
 * socket's two ends; behind a load balancer that speaks the PROXY protocol, what its header says.
 * Whatever shows, logs, captures or limits by the client's address asks {@link #of} for it, so a
 * client behind haproxy is never mistaken for haproxy.
 *
 * @param source      the client: an {@link InetSocketAddress}, or whatever else the channel has
 * @param destination the address the client connected to (the balancer's, behind one)
 */
public record ClientOrigin(SocketAddress source, SocketAddress destination) {

    private static final AttributeKey<ClientOrigin> KEY = AttributeKey.valueOf(ClientOrigin.class, "origin");

    /** The origin of {@code channel}'s client: set from a PROXY header, else the socket's ends. */
    public static ClientOrigin of(Channel channel) {
        ClientOrigin set = channel.attr(KEY).get();
        return set != null ? set : new ClientOrigin(channel.remoteAddress(), channel.localAddress());
    }

    /** Records what a PROXY header said; call before the connection is handed on. */
    public static void set(Channel channel, ClientOrigin origin) {
        channel.attr(KEY).set(origin);
    }

    /** The client's IP address, or null when the channel has none (an in-memory channel in a test). */
    public InetAddress address() {
        return source instanceof InetSocketAddress inet ? inet.getAddress() : null;
    }

    /** The client's IP as text, as MySQL names a host in 'user'@'host': {@code 10.0.0.7}, or {@code unknown}. */
    public String host() {
        if (source instanceof InetSocketAddress inet) {
            return inet.getAddress() == null ? inet.getHostString() : inet.getAddress().getHostAddress();
        }
        return "unknown";
    }

    /** {@code host:port} for logs and the sessions table. */
    public String describe() {
        return source instanceof InetSocketAddress inet ? host() + ":" + inet.getPort() : String.valueOf(source);
    }

    @Override
    public String toString() {
        return describe();
    }
}
