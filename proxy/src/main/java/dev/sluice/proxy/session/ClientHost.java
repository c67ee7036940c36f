package dev.sluice.proxy.session;

import io.netty.channel.Channel;
import java.net.InetSocketAddress;

/** The client's host as the server's messages name it ('user'@'host'). */
public final class ClientHost {

    private ClientHost() {
    }

    public static String of(Channel client) {
        if (client.remoteAddress() instanceof InetSocketAddress address) {
            return address.getAddress() == null ? address.getHostString() : address.getAddress().getHostAddress();
        }
        return "unknown";
    }
}
