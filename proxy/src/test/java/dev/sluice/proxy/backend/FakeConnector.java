package dev.sluice.proxy.backend;

import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Stands in for the network and the login in pool tests: each connect is held until the test
 * completes it, with a session-mode connection on an {@link EmbeddedChannel} registered on the
 * event loop the pool asked for, or fails it.
 */
public final class FakeConnector implements Connector {

    /** A connect the pool asked for and the test has not answered yet. */
    public record Asked(Backend backend, LoginRequest request, EventLoop loop, Promise<BackendConnection> promise) {
    }

    private final ArrayDeque<Asked> asked = new ArrayDeque<>();
    private final List<EmbeddedChannel> channels = new ArrayList<>();
    private String trackingStatement;

    @Override
    public Future<BackendConnection> connect(Backend backend, LoginRequest request, EventLoop loop) {
        Promise<BackendConnection> promise = loop.newPromise();
        asked.addLast(new Asked(backend, request, loop, promise));
        return promise;
    }

    /** How many connects wait for the test. */
    public int pending() {
        return asked.size();
    }

    /** The loop the oldest pending connect is for. */
    public EventLoop nextLoop() {
        return asked.getFirst().loop();
    }

    /** Completes the oldest pending connect with a fresh connection on its loop. */
    public RelayedConnection complete() {
        Asked next = asked.removeFirst();
        EmbeddedChannel channel = EmbeddedChannel.builder().register(false).build();
        next.loop().register(channel).syncUninterruptibly();
        RelayedConnection connection = new RelayedConnection(channel, next.backend(),
                new BackendIdentity(next.request().user(), BackendPoolTest.CAPABILITIES, next.request().charset()),
                next.request().schema());
        channel.pipeline().addLast(connection);
        channels.add(channel);
        next.promise().setSuccess(connection);
        return connection;
    }

    /** The backend the oldest pending connect is for. */
    public Backend nextBackend() {
        return asked.getFirst().backend();
    }

    /**
     * Completes the oldest pending connect with a split-mode connection, on its loop, capabilities
     * {@code capabilities}: the proxy's request for session tracking is answered with an OK that
     * reports what the login left the character set variables at ({@code loginValues}).
     */
    public TrackedConnection completeTracked(long capabilities, byte[] trackingOk) {
        return completeTracked(capabilities, trackingOk, ServerFlavor.MARIADB);
    }

    /** As {@link #completeTracked(long, byte[])}, for a server of {@code flavor}. */
    public TrackedConnection completeTracked(long capabilities, byte[] trackingOk, ServerFlavor flavor) {
        Asked next = asked.removeFirst();
        EmbeddedChannel channel = EmbeddedChannel.builder().register(false).build();
        next.loop().register(channel).syncUninterruptibly();
        TrackedConnection connection = new TrackedConnection(channel, next.backend(),
                new BackendIdentity(next.request().user(), capabilities, next.request().charset(), flavor),
                next.request().schema());
        channel.pipeline().addLast(connection);
        channels.add(channel);
        connection.startTracking(ok -> next.promise().setSuccess(connection),
                failed -> next.promise().setFailure(new IllegalStateException(failed.errorMessage())));
        StringBuilder tracking = new StringBuilder();
        for (Object sent = channel.readOutbound(); sent != null; sent = channel.readOutbound()) {
            io.netty.buffer.ByteBuf bytes = (io.netty.buffer.ByteBuf) sent;
            tracking.append(bytes.toString(java.nio.charset.StandardCharsets.UTF_8));
            bytes.release();
        }
        trackingStatement = tracking.toString();
        channel.writeInbound(io.netty.buffer.Unpooled.wrappedBuffer(trackingOk));
        return connection;
    }

    /** What the last split-mode connection completed was asked for session tracking (the frame, as text). */
    public String trackingStatement() {
        return trackingStatement;
    }

    /** Fails the oldest pending connect as an unreachable backend would. */
    public void fail() {
        Asked next = asked.removeFirst();
        next.promise().setFailure(new BackendLoginException(BackendLoginException.BACKEND_UNAVAILABLE, "08S01",
                "Can't connect to backend " + next.backend().name() + ": refused", false));
    }

    /** Fails the oldest pending connect as a server refusing the login would (access denied). */
    public void refuse() {
        Asked next = asked.removeFirst();
        next.promise().setFailure(new BackendLoginException(1045, "28000", "Access denied for user '"
                + next.request().user() + "'", true));
    }

    /** Every channel made, for the test to release what is left in them. */
    public List<EmbeddedChannel> channels() {
        return channels;
    }
}
