package dev.sluice.proxy.session;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.KillConnections;
import dev.sluice.proxy.kill.Kills;
import dev.sluice.proxy.kill.LiveSessions;
import dev.sluice.proxy.memory.MemoryBudget;
import dev.sluice.proxy.observe.Observers;
import dev.sluice.proxy.sql.SqlReaders;
import dev.sluice.proxy.stats.ProxyStats;
import dev.sluice.proxy.testing.Written;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;

/**
 * A client's side of a session on an {@link EmbeddedChannel}, its command phase in the pipeline
 * behind the frame decoder as in the proxy, with the services every session gets. The test plays
 * the client ({@link #send}, {@link #toClient}) and whatever backend the session's path talks to.
 */
final class SessionHarness {

    final SluiceConfig config;
    final LiveSessions sessions = new LiveSessions();
    final ClientConnections clients = new ClientConnections();
    final ProxyStats stats = new ProxyStats();
    final SessionServices services;
    final EmbeddedChannel client = new EmbeddedChannel();

    SessionHarness(String yaml) {
        this.config = ConfigLoader.parse(yaml, "test.yaml");
        this.services = new SessionServices(() -> config, new Kills(sessions, new KillConnections(),
                (backend, request, loop) -> loop.newFailedFuture(new IllegalStateException("no connects in this test")),
                () -> config), new Observers(), clients, stats, MemoryBudget.unlimited(), new SqlReaders());
    }

    /** The session's command phase over {@code path}; {@code connectionId} -1 for pass-through. */
    CommandPhase start(long connectionId, StatementPath path) {
        CommandPhase phase = new CommandPhase(services, client, connectionId, path);
        client.pipeline().addLast("frames", new RawPacketDecoder());
        client.pipeline().addLast("session", phase);
        return phase;
    }

    /** Bytes from the client, in one read. */
    void send(byte[] bytes) {
        client.writeInbound(Unpooled.wrappedBuffer(bytes));
    }

    /** What the session wrote to the client since last asked. */
    byte[] toClient() {
        return Written.drain(client);
    }

    /** A backend connection's channel, on the client's event loop as the proxy's are. */
    EmbeddedChannel backendChannel() {
        EmbeddedChannel channel = EmbeddedChannel.builder().register(false).build();
        client.eventLoop().register(channel).syncUninterruptibly();
        return channel;
    }

    static Backend backend(String name, dev.sluice.config.BackendConfig.Role role) {
        return new Backend(new dev.sluice.config.BackendConfig(name, new dev.sluice.config.HostPort("127.0.0.1", 3306),
                role, 1, 10));
    }
}
