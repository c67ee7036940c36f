package dev.sluice.proxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.proxy.testing.CapturedExchanges;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Sessions on four real event loops take and give back connections as fast as they can, over a
 * cap of three: the slots are counted atomically across loops, and a connection closed to give
 * its slot to a waiter elsewhere has closed before the waiter opens its own, so no more than three
 * are ever opening or open; every session is served, and the pool ends at rest. The "server", on
 * loopback, answers every reset with the OK a MariaDB server sent in a capture.
 */
class PoolAcrossLoopsTest {

    private static final byte[] OK = CapturedExchanges.of("connectorj.pcapng").first(Commands.COM_RESET_CONNECTION)
            .response();
    private static final int MAX = 3;
    private static final int SESSIONS_PER_LOOP = 4;
    private static final int ROUNDS = 200;
    /** Connections asked for and not closed yet, and the most there were at once. */
    private static final AtomicInteger OPEN = new AtomicInteger();
    private static final AtomicInteger MOST_OPEN = new AtomicInteger();

    @Test
    void theCapHoldsAcrossLoopsAndEverySessionIsServed() throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(4, NioIoHandler.newFactory());
        Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        channel.pipeline().addLast(new RawPacketDecoder(), new AnswerOk());
                    }
                }).bind("127.0.0.1", 0).sync().channel();
        java.net.SocketAddress address = server.localAddress();
        try {
            Backend backend = new Backend(new BackendConfig("db", new HostPort("127.0.0.1", 3306),
                    BackendConfig.Role.PRIMARY, 1, MAX));
            BackendPool pool = new BackendPool(backend, (b, request, loop) -> connect(address, b, request, loop),
                    10_000, Duration.ofSeconds(30));
            LoginRequest login = new LoginRequest("app", "secret".getBytes(StandardCharsets.UTF_8),
                    Capabilities.CLIENT_PROTOCOL_41, 45, null);
            List<EventLoop> loops = new ArrayList<>();
            group.forEach(executor -> loops.add((EventLoop) executor));
            CountDownLatch done = new CountDownLatch(loops.size() * SESSIONS_PER_LOOP);
            AtomicInteger served = new AtomicInteger();
            AtomicInteger failed = new AtomicInteger();
            for (EventLoop loop : loops) {
                for (int i = 0; i < SESSIONS_PER_LOOP; i++) {
                    loop.execute(() -> session(pool, login, loop, ROUNDS, served, failed, done));
                }
            }
            boolean finished = done.await(60, TimeUnit.SECONDS);
            assertThat(finished).as("every session finished its rounds").isTrue();
            assertThat(failed.get()).isZero();
            assertThat(served.get()).isEqualTo(loops.size() * SESSIONS_PER_LOOP * ROUNDS);
            assertThat(MOST_OPEN.get()).as("connections opening or open at once").isLessThanOrEqualTo(MAX);
            assertThat(backend.openConnections().get()).isLessThanOrEqualTo(MAX);
            assertThat(pool.waiting()).isZero();
            pool.close();
        } finally {
            server.close().sync();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    /** One session: takes a connection, gives it back, {@code rounds} times, one after the other. */
    private static void session(BackendPool pool, LoginRequest login, EventLoop loop, int rounds, AtomicInteger served,
                                AtomicInteger failed, CountDownLatch done) {
        if (rounds == 0) {
            done.countDown();
            return;
        }
        pool.acquire(login, loop).addListener(acquired -> {
            if (!acquired.isSuccess()) {
                failed.incrementAndGet();
                done.countDown();
                return;
            }
            BackendConnection connection = (BackendConnection) acquired.getNow();
            served.incrementAndGet();
            pool.release(connection);
            loop.execute(() -> session(pool, login, loop, rounds - 1, served, failed, done));
        });
    }

    private static Future<BackendConnection> connect(java.net.SocketAddress address, Backend backend, LoginRequest request,
                                                     EventLoop loop) {
        Promise<BackendConnection> promise = loop.newPromise();
        MOST_OPEN.accumulateAndGet(OPEN.incrementAndGet(), Math::max);
        new Bootstrap().group(loop).channel(NioSocketChannel.class).handler(new ChannelInboundHandlerAdapter())
                .connect(address).addListener(connected -> {
                    Channel channel = ((io.netty.channel.ChannelFuture) connected).channel();
                    channel.closeFuture().addListener(closed -> OPEN.decrementAndGet());
                    if (!connected.isSuccess()) {
                        promise.setFailure(connected.cause());
                        return;
                    }
                    RelayedConnection connection = new RelayedConnection(channel, backend,
                            new BackendIdentity(request.user(), BackendPoolTest.CAPABILITIES, request.charset()),
                            request.schema());
                    channel.pipeline().addLast(connection);
                    promise.setSuccess(connection);
                });
        return promise;
    }

    /** The server's side: OK to every command (COM_QUIT gets none). */
    private static final class AnswerOk extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            int command = frame.getUnsignedByte(frame.readerIndex() + 4);
            frame.release();
            if (command == Commands.COM_QUIT) {
                ctx.close();
            } else {
                ctx.writeAndFlush(Unpooled.wrappedBuffer(OK));
            }
        }
    }
}
