package dev.sluice.proxy.admin;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** The HTTP admin port (Netty's HTTP codec; requests are small GETs). */
final class AdminHttpServer {

    private static final int MAX_REQUEST = 64 * 1024;
    /** A scraper or {@code sluice stats --watch} asks every few seconds; a connection idle longer is gone. */
    private static final Duration IDLE = Duration.ofSeconds(60);

    private AdminHttpServer() {
    }

    static Channel bind(EventLoopGroup group, String host, int port, AdminHttpHandler handler) throws InterruptedException {
        AdminConnectionLimit limit = new AdminConnectionLimit(IDLE, AdminHttpServer::tooMany);
        return new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        channel.pipeline().addLast("http", new HttpServerCodec());
                        channel.pipeline().addLast("aggregate", new HttpObjectAggregator(MAX_REQUEST));
                        channel.pipeline().addLast("admin", handler);
                        limit.install(channel);
                    }
                })
                .bind(host, port).sync().channel();
    }

    /** Bytes, not a response object: this runs in front of the HTTP codec, before any request. */
    private static void tooMany(ChannelHandlerContext ctx) {
        String body = "too many admin connections (at most " + AdminConnectionLimit.MAX + ")\n";
        String response = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + body;
        ctx.writeAndFlush(Unpooled.copiedBuffer(response, StandardCharsets.US_ASCII)).addListener(ChannelFutureListener.CLOSE);
    }
}
