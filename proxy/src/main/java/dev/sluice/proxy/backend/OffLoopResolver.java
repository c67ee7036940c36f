package dev.sluice.proxy.backend;

import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.resolver.InetNameResolver;
import io.netty.util.NetUtil;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.Promise;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;

/**
 * Resolves backend host names on threads of their own, never on an event loop: Netty's default
 * resolver asks the system (/etc/hosts, DNS) on the thread that connects, and a slow or dead name
 * server would stall every session of that loop. The JDK caches answers for
 * networkaddress.cache.ttl (30 s by default), so a backend's address follows a DNS change within
 * that. An IP literal needs no lookup and is answered at once, on the caller.
 */
public final class OffLoopResolver extends AddressResolverGroup<InetSocketAddress> {

    /** What a lookup asks of the system; {@link InetAddress#getAllByName} but in tests. */
    interface Lookup {
        InetAddress[] all(String host) throws UnknownHostException;
    }

    private final Lookup lookup;
    private final EventExecutorGroup lookups;

    OffLoopResolver(Lookup lookup, EventExecutorGroup lookups) {
        this.lookup = lookup;
        this.lookups = lookups;
    }

    /**
     * The one every backend connection of a proxy uses, on two threads of its own (lookups are
     * rare), which {@link #close} stops with the proxy.
     */
    public static OffLoopResolver create() {
        return new OffLoopResolver(InetAddress::getAllByName,
                new DefaultEventExecutorGroup(2, new DefaultThreadFactory("sluice-dns", true)));
    }

    @Override
    public void close() {
        super.close();
        lookups.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS);
    }

    @Override
    protected AddressResolver<InetSocketAddress> newResolver(EventExecutor loop) {
        return new Names(loop, lookup, lookups).asAddressResolver();
    }

    /** Promises complete on the lookup thread; Netty's connect goes back to the channel's loop itself. */
    private static final class Names extends InetNameResolver {

        private final Lookup lookup;
        private final EventExecutorGroup lookups;

        Names(EventExecutor loop, Lookup lookup, EventExecutorGroup lookups) {
            super(loop);
            this.lookup = lookup;
            this.lookups = lookups;
        }

        @Override
        protected void doResolve(String host, Promise<InetAddress> promise) {
            byte[] literal = NetUtil.createByteArrayFromIpAddressString(host);
            if (literal != null) {
                promise.trySuccess(literalAddress(host, literal));
                return;
            }
            lookups.execute(() -> {
                try {
                    promise.trySuccess(lookup.all(host)[0]);
                } catch (UnknownHostException | RuntimeException e) {
                    promise.tryFailure(e);
                }
            });
        }

        @Override
        protected void doResolveAll(String host, Promise<List<InetAddress>> promise) {
            byte[] literal = NetUtil.createByteArrayFromIpAddressString(host);
            if (literal != null) {
                promise.trySuccess(List.of(literalAddress(host, literal)));
                return;
            }
            lookups.execute(() -> {
                try {
                    promise.trySuccess(Arrays.asList(lookup.all(host)));
                } catch (UnknownHostException | RuntimeException e) {
                    promise.tryFailure(e);
                }
            });
        }

        private static InetAddress literalAddress(String host, byte[] bytes) {
            try {
                return InetAddress.getByAddress(host, bytes);
            } catch (UnknownHostException e) {
                throw new IllegalStateException("a literal address of " + bytes.length + " bytes", e);
            }
        }
    }
}
