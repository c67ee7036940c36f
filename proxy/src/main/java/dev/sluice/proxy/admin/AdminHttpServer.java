package dev.sluice.proxy.admin;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;

/** The HTTP admin port (Netty's HTTP codec; requests are small GETs). */
final class AdminHttpServer {

    private static final int MAX_REQUEST = 64 * 1024;

    private AdminHttpServer() {
    }

    static Channel bind(EventLoopGroup group, String host, int port, AdminHttpHandler handler) throws InterruptedException {
        return new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        channel.pipeline().addLast("http", new HttpServerCodec());
                        channel.pipeline().addLast("aggregate", new HttpObjectAggregator(MAX_REQUEST));
                        channel.pipeline().addLast("admin", handler);
                    }
                })
                .bind(host, port).sync().channel();
    }
}
