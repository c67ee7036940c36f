package dev.sluice.proxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.DefaultEventLoop;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.Future;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A slow name lookup must not hold the event loop that asked for it. */
class OffLoopResolverTest {

    @Test
    void aNameIsLookedUpOffTheLoopWhileTheLoopGoesOn() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Thread> lookedUpOn = new AtomicReference<>();
        DefaultEventExecutorGroup lookups = new DefaultEventExecutorGroup(1);
        DefaultEventLoop loop = new DefaultEventLoop();
        try {
            OffLoopResolver resolver = new OffLoopResolver(host -> {
                lookedUpOn.set(Thread.currentThread());
                try {
                    release.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return new InetAddress[] {InetAddress.getByAddress(host, new byte[] {10, 1, 2, 3})};
            }, lookups);
            CompletableFuture<Future<InetSocketAddress>> asked = new CompletableFuture<>();
            CompletableFuture<Thread> loopThread = new CompletableFuture<>();
            loop.execute(() -> {
                loopThread.complete(Thread.currentThread());
                asked.complete(resolver.getResolver(loop).resolve(InetSocketAddress.createUnresolved("db.example", 3306)));
            });
            Future<InetSocketAddress> resolved = asked.get(5, TimeUnit.SECONDS);
            // The lookup is still held: the loop must run other work meanwhile.
            assertThat(loop.submit(() -> "still running").get(2, TimeUnit.SECONDS)).isEqualTo("still running");
            assertThat(resolved.isDone()).isFalse();
            release.countDown();
            InetSocketAddress address = resolved.get(5, TimeUnit.SECONDS);
            assertThat(address.getAddress().getHostAddress()).isEqualTo("10.1.2.3");
            assertThat(address.getPort()).isEqualTo(3306);
            assertThat(lookedUpOn.get()).isNotNull().isNotSameAs(loopThread.get());
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            lookups.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    @Test
    void anAddressLiteralNeedsNoLookup() throws Exception {
        DefaultEventExecutorGroup lookups = new DefaultEventExecutorGroup(1);
        DefaultEventLoop loop = new DefaultEventLoop();
        try {
            OffLoopResolver resolver = new OffLoopResolver(host -> {
                throw new AssertionError("looked up " + host);
            }, lookups);
            Future<InetSocketAddress> resolved = loop.submit(() -> resolver.getResolver(loop)
                    .resolve(InetSocketAddress.createUnresolved("127.0.0.1", 3306))).get(5, TimeUnit.SECONDS);
            assertThat(resolved.isDone()).as("answered on the caller, at once").isTrue();
            assertThat(resolved.get().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            lookups.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }
}
