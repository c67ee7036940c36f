package dev.sluice.proxy.admin;

import dev.sluice.config.AdminConfig;
import dev.sluice.protocol.auth.RsaKeys;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.proxy.command.Replies;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.util.function.Supplier;

/** The MySQL-protocol admin port: each connection gets an {@link AdminSqlSession}. */
final class AdminSqlServer {

    /** What the admin's greeting (and SELECT @@version) says. */
    static final String VERSION = "8.0.40-sluice-admin";
    /** Admin statements are short: anything longer than this is refused before it is buffered. */
    private static final int MAX_PACKET = 1 << 20;
    /** An admin session idle this long is closed (the server's own wait_timeout is hours; a DBA's shell is not). */
    private static final java.time.Duration IDLE = java.time.Duration.ofMinutes(10);

    private AdminSqlServer() {
    }

    static Channel bind(EventLoopGroup group, Supplier<AdminConfig> config, RsaKeys rsaKeys, AdminCommands commands)
            throws InterruptedException {
        AdminConfig admin = config.get();
        // One admin listener's sessions number from 1, whatever other proxies run in this JVM.
        java.util.concurrent.atomic.AtomicLong connectionIds = new java.util.concurrent.atomic.AtomicLong();
        AdminConnectionLimit limit = new AdminConnectionLimit(IDLE, ctx -> ctx.writeAndFlush(Replies.err(ctx.alloc(), 0,
                Replies.TOO_MANY_CONNECTIONS, "08004", "Too many connections (the admin port takes "
                        + AdminConnectionLimit.MAX + ")")).addListener(io.netty.channel.ChannelFutureListener.CLOSE));
        return new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        channel.pipeline().addLast("frames", new RawPacketDecoder(MAX_PACKET));
                        channel.pipeline().addLast("admin", new AdminSqlSession(config, rsaKeys, commands,
                                connectionIds.incrementAndGet() & 0xFFFF_FFFFL));
                        limit.install(channel);
                    }
                })
                .bind(admin.sql().host(), admin.sql().port()).sync().channel();
    }
}
