package dev.sluice.proxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.frame.Packet;
import dev.sluice.proxy.testing.CapturedExchanges;
import dev.sluice.proxy.testing.ServerPackets;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The pool on event loops the test drives ({@link EmbeddedChannel}s sharing one clock), with a
 * connector the test answers ({@link FakeConnector}) and, for the reset a connection given back
 * gets, the OK a MariaDB server sent Connector/J's COM_RESET_CONNECTION in a capture.
 */
class BackendPoolTest {

    static final long CAPABILITIES = CapturedExchanges.of("connectorj.pcapng").capabilities();
    private static final byte[] RESET_OK = CapturedExchanges.of("connectorj.pcapng")
            .first(Commands.COM_RESET_CONNECTION).response();
    private static final LoginRequest APP = new LoginRequest("app", "secret".getBytes(StandardCharsets.UTF_8),
            Capabilities.CLIENT_PROTOCOL_41, 45, null);
    private static final LoginRequest REPORTS = new LoginRequest("reports", "secret".getBytes(StandardCharsets.UTF_8),
            Capabilities.CLIENT_PROTOCOL_41, 45, null);

    private final MockTicker clock = Ticker.newMockTicker();
    private final EmbeddedChannel loopA = EmbeddedChannel.builder().ticker(clock).build();
    private final EmbeddedChannel loopB = EmbeddedChannel.builder().ticker(clock).build();
    private final FakeConnector connector = new FakeConnector();
    private final List<BackendPool> pools = new ArrayList<>();

    @AfterEach
    void releaseEverything() {
        pools.forEach(BackendPool::close);
        runTasks();
        for (EmbeddedChannel channel : connector.channels()) {
            channel.finishAndReleaseAll();
        }
        loopA.finishAndReleaseAll();
        loopB.finishAndReleaseAll();
    }

    @Test
    void aConnectionGivenBackServesTheNextSessionOnItsLoop() {
        BackendPool pool = pool(2, 10, Duration.ofSeconds(5));
        Future<BackendConnection> first = pool.acquire(APP, loop(loopA));
        assertThat(connector.nextLoop()).isSameAs(loop(loopA));
        BackendConnection connection = connector.complete();
        assertThat(first.getNow()).isSameAs(connection);
        giveBack(pool, connection);
        assertThat(pool.idleCount()).isEqualTo(1);

        Future<BackendConnection> second = pool.acquire(APP, loop(loopA));
        assertThat(second.getNow()).as("the idle connection, no new login").isSameAs(connection);
        assertThat(connector.pending()).isZero();
        assertThat(pool.idleCount()).isZero();
        assertThat(backendOf(pool).openConnections().get()).isEqualTo(1);
    }

    @Test
    void anIdleConnectionIsTakenAtOnceOnItsOwnLoopOnly() {
        BackendPool pool = pool(2, 10, Duration.ofSeconds(5));
        pool.acquire(APP, loop(loopA));
        RelayedConnection connection = connector.complete();
        giveBack(pool, connection);

        assertThat(pool.takeIdle(APP, loop(loopB), null)).as("another loop's").isNull();
        assertThat(pool.takeIdle(APP, loop(loopA), null)).isSameAs(connection);
        assertThat(pool.idleCount()).isZero();
        assertThat(pool.takeIdle(APP, loop(loopA), null)).as("taken").isNull();
        assertThat(connector.pending()).as("never a login").isZero();
    }

    @Test
    void aPreferredIdleConnectionIsTakenFirstElseTheOneIdleLongest() {
        BackendPool pool = pool(3, 10, Duration.ofSeconds(5));
        pool.acquire(APP, loop(loopA));
        RelayedConnection older = connector.complete();
        pool.acquire(APP, loop(loopA));
        RelayedConnection middle = connector.complete();
        pool.acquire(APP, loop(loopA));
        RelayedConnection newer = connector.complete();
        giveBack(pool, older);
        giveBack(pool, middle);
        giveBack(pool, newer);

        assertThat(pool.takeIdle(APP, loop(loopA), List.of(middle))).as("the one asked for").isSameAs(middle);
        assertThat(pool.takeIdle(APP, loop(loopA), List.of(middle))).as("asked for, but taken: the oldest")
                .isSameAs(older);
        assertThat(pool.idleCount()).isEqualTo(1);
        giveBack(pool, older);
        giveBack(pool, middle);
        assertThat(pool.takeIdle(APP, loop(loopA), null)).as("none asked for: the one given back last").isSameAs(middle);
    }

    @Test
    void anotherLoopOpensItsOwnWhileTheCapAllows() {
        BackendPool pool = pool(2, 10, Duration.ofSeconds(5));
        pool.acquire(APP, loop(loopA));
        giveBack(pool, connector.complete());

        Future<BackendConnection> onB = pool.acquire(APP, loop(loopB));
        assertThat(onB.isDone()).isFalse();
        assertThat(connector.nextLoop()).as("connections stay on their loop").isSameAs(loop(loopB));
        BackendConnection second = connector.complete();
        assertThat(onB.getNow()).isSameAs(second);
        assertThat(pool.idleCount()).as("loop A's is still idle there").isEqualTo(1);
        assertThat(backendOf(pool).openConnections().get()).isEqualTo(2);
    }

    @Test
    void atTheCapTheConnectionIdleLongestClosesForANewcomerElsewhere() {
        BackendPool pool = pool(1, 10, Duration.ofSeconds(5));
        pool.acquire(APP, loop(loopA));
        RelayedConnection idle = connector.complete();
        giveBack(pool, idle);

        Future<BackendConnection> onB = pool.acquire(APP, loop(loopB));
        runTasks();
        assertThat(sent(idle)).as("the idle connection quits").containsExactly(Commands.COM_QUIT);
        assertThat(idle.channel().isOpen()).isFalse();
        assertThat(connector.nextLoop()).isSameAs(loop(loopB));
        assertThat(onB.getNow() == null).isTrue();
        connector.complete();
        assertThat(onB.isSuccess()).isTrue();
        assertThat(backendOf(pool).openConnections().get()).as("its slot went to the newcomer").isEqualTo(1);
        assertThat(pool.idleCount()).isZero();
    }

    @Test
    void waitersOnTheSameLoopGetTheConnectionInTheOrderTheyCame() {
        BackendPool pool = pool(1, 10, Duration.ofSeconds(5));
        pool.acquire(APP, loop(loopA));
        RelayedConnection connection = connector.complete();
        Future<BackendConnection> first = pool.acquire(APP, loop(loopA));
        Future<BackendConnection> second = pool.acquire(APP, loop(loopA));
        assertThat(pool.waiting()).isEqualTo(2);

        giveBack(pool, connection);
        assertThat(first.getNow()).as("handed over, reset, no login").isSameAs(connection);
        assertThat(second.isDone()).isFalse();
        assertThat(pool.waiting()).isEqualTo(1);

        giveBack(pool, connection);
        assertThat(second.getNow()).isSameAs(connection);
        assertThat(pool.waiting()).isZero();
        assertThat(connector.pending()).isZero();
    }

    @Test
    void theLongestWaiterElsewhereGetsTheSlotAndTheConnectionCloses() {
        BackendPool pool = pool(1, 10, Duration.ofSeconds(5));
        pool.acquire(APP, loop(loopA));
        RelayedConnection connection = connector.complete();
        Future<BackendConnection> onB = pool.acquire(APP, loop(loopB));
        clock.advance(150, TimeUnit.MILLISECONDS);
        Future<BackendConnection> onA = pool.acquire(APP, loop(loopA));

        giveBack(pool, connection);
        assertThat(onA.isDone()).as("came 150 ms later than the waiter on loop B").isFalse();
        assertThat(connection.channel().isOpen()).as("a connection cannot move to another loop").isFalse();
        assertThat(connector.nextLoop()).isSameAs(loop(loopB));
        connector.complete();
        assertThat(onB.isSuccess()).isTrue();
        assertThat(pool.waiting()).isEqualTo(1);
        assertThat(backendOf(pool).openConnections().get()).isEqualTo(1);
    }

    @Test
    void aWaiterOnTheConnectionsLoopCloseBehindTheLongestIsServedWithoutALogin() {
        BackendPool pool = pool(1, 10, Duration.ofSeconds(5));
        pool.acquire(APP, loop(loopA));
        RelayedConnection connection = connector.complete();
        Future<BackendConnection> onB = pool.acquire(APP, loop(loopB));
        clock.advance(50, TimeUnit.MILLISECONDS);
        Future<BackendConnection> onA = pool.acquire(APP, loop(loopA));

        giveBack(pool, connection);
        assertThat(onA.getNow()).as("within 100 ms of the longest waiter").isSameAs(connection);
        assertThat(onB.isDone()).isFalse();
        assertThat(connector.pending()).isZero();
    }

    @Test
    void anotherAccountsWaiterGetsTheSlot() {
        BackendPool pool = pool(1, 10, Duration.ofSeconds(5));
        pool.acquire(APP, loop(loopA));
        RelayedConnection connection = connector.complete();
        Future<BackendConnection> reports = pool.acquire(REPORTS, loop(loopA));

        giveBack(pool, connection);
        assertThat(connection.channel().isOpen()).isFalse();
        assertThat(connector.pending()).isEqualTo(1);
        BackendConnection own = connector.complete();
        assertThat(reports.getNow()).isSameAs(own);
        assertThat(own.identity().user()).isEqualTo("reports");
    }

    @Test
    void aWaitThatSeesNoConnectionComeFreeEndsInTheCapsError() {
        BackendPool pool = pool(1, 10, Duration.ofSeconds(2));
        pool.acquire(APP, loop(loopA));
        connector.complete();
        Future<BackendConnection> waiting = pool.acquire(APP, loop(loopB));
        clock.advance(1999, TimeUnit.MILLISECONDS);
        runTasks();
        assertThat(waiting.isDone()).isFalse();

        clock.advance(1, TimeUnit.MILLISECONDS);
        runTasks();
        assertThat(waiting.cause()).isInstanceOf(BackendLoginException.class)
                .hasMessage("Too many connections: backend db is at its max_connections (1) and no connection came"
                        + " free within 2000 ms");
        assertThat(((BackendLoginException) waiting.cause()).errorCode()).isEqualTo(1040);
        assertThat(pool.waiting()).isZero();
    }

    @Test
    void aQueueThatMovesKeepsItsWaitersWaiting() {
        BackendPool pool = pool(1, 10, Duration.ofSeconds(2));
        pool.acquire(APP, loop(loopA));
        RelayedConnection connection = connector.complete();
        Future<BackendConnection> first = pool.acquire(APP, loop(loopA));
        Future<BackendConnection> second = pool.acquire(APP, loop(loopA));
        clock.advance(1500, TimeUnit.MILLISECONDS);
        runTasks();
        giveBack(pool, connection);
        assertThat(first.isSuccess()).isTrue();

        clock.advance(1000, TimeUnit.MILLISECONDS);
        runTasks();
        assertThat(second.isDone()).as("2.5 s in line, but the line moved 1 s ago").isFalse();
        clock.advance(1000, TimeUnit.MILLISECONDS);
        runTasks();
        assertThat(second.cause()).hasMessageContaining("no connection came free within 2000 ms");
    }

    @Test
    void aFullQueueRefusesAtOnce() {
        BackendPool pool = pool(1, 1, Duration.ofSeconds(5));
        pool.acquire(APP, loop(loopA));
        connector.complete();
        Future<BackendConnection> queued = pool.acquire(APP, loop(loopA));
        Future<BackendConnection> refused = pool.acquire(APP, loop(loopB));
        assertThat(queued.isDone()).isFalse();
        assertThat(refused.cause()).hasMessage("Too many connections: backend db is at its max_connections (1)"
                + " and 1 sessions already wait");
    }

    @Test
    void aCancelledWaitLeavesTheQueue() {
        BackendPool pool = pool(1, 10, Duration.ofSeconds(5));
        pool.acquire(APP, loop(loopA));
        RelayedConnection connection = connector.complete();
        Future<BackendConnection> waiting = pool.acquire(APP, loop(loopA));
        assertThat(pool.waiting()).isEqualTo(1);

        waiting.cancel(false);
        assertThat(pool.waiting()).isZero();
        giveBack(pool, connection);
        assertThat(pool.idleCount()).as("no one waits for it any more").isEqualTo(1);
    }

    @Test
    void aFailedLoginGivesItsSlotToTheNextWaiter() {
        BackendPool pool = pool(1, 10, Duration.ofSeconds(5));
        Future<BackendConnection> failing = pool.acquire(APP, loop(loopA));
        Future<BackendConnection> next = pool.acquire(APP, loop(loopB));
        assertThat(pool.waiting()).as("one waits for its login, one in the queue at the cap").isEqualTo(2);

        connector.fail();
        assertThat(failing.cause()).isInstanceOf(BackendLoginException.class).hasMessageContaining("refused");
        assertThat(connector.nextLoop()).as("the slot went to the waiter").isSameAs(loop(loopB));
        connector.complete();
        assertThat(next.isSuccess()).isTrue();
        assertThat(backendOf(pool).openConnections().get()).isEqualTo(1);
    }

    @Test
    void aConnectionClosedWhileIdleFreesItsSlot() {
        BackendPool pool = pool(1, 10, Duration.ofSeconds(5));
        pool.acquire(APP, loop(loopA));
        RelayedConnection connection = connector.complete();
        giveBack(pool, connection);
        connection.channel().close();
        assertThat(pool.idleCount()).isZero();
        assertThat(backendOf(pool).openConnections().get()).isZero();
    }

    @Test
    void closingFailsTheWaiters() {
        BackendPool pool = pool(1, 10, Duration.ofSeconds(5));
        pool.acquire(APP, loop(loopA));
        connector.complete();
        Future<BackendConnection> waiting = pool.acquire(REPORTS, loop(loopB));

        pool.close();
        assertThat(waiting.cause()).hasMessage("backend db unavailable: the proxy is shutting down");
        assertThat(pool.waiting()).isZero();
        assertThat(pool.acquire(APP, loop(loopA)).cause()).hasMessageContaining("shutting down");
    }

    @Test
    void closingQuitsTheIdleConnections() {
        BackendPool pool = pool(2, 10, Duration.ofSeconds(5));
        pool.acquire(APP, loop(loopA));
        RelayedConnection idle = connector.complete();
        giveBack(pool, idle);

        pool.close();
        runTasks();
        assertThat(sent(idle)).containsExactly(Commands.COM_QUIT);
        assertThat(pool.idleCount()).isZero();
        assertThat(backendOf(pool).openConnections().get()).isZero();
    }

    @Test
    void afterABurstTheIdleConnectionsBeyondATenthOfTheCapCloseASecondLater() {
        BackendPool pool = pool(100, 10, Duration.ofSeconds(5));
        List<RelayedConnection> burst = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            pool.acquire(APP, loop(i % 2 == 0 ? loopA : loopB));
            burst.add(connector.complete());
        }
        for (RelayedConnection connection : burst) {
            giveBack(pool, connection);
        }
        long now = System.nanoTime();

        pool.evictIdle(Duration.ofSeconds(60), now);
        assertThat(pool.idleCount()).as("idle for less than a second: the burst may still want them").isEqualTo(30);

        pool.evictIdle(Duration.ofSeconds(60), now + BackendPool.SURPLUS_IDLE_NANOS + 1);
        runTasks();
        assertThat(pool.idleCount()).isEqualTo(pool.keptIdle()).isEqualTo(10);
        assertThat(burst.subList(0, 20)).as("the longest idle closed").allSatisfy(
                c -> assertThat(sent(c)).containsExactly(Commands.COM_QUIT));
        assertThat(burst.subList(20, 30)).allSatisfy(c -> assertThat(sent(c)).isEmpty());

        pool.evictIdle(Duration.ofSeconds(60), now + java.util.concurrent.TimeUnit.SECONDS.toNanos(30));
        assertThat(pool.idleCount()).as("the kept ones wait out timeouts.pool_idle").isEqualTo(10);
        pool.evictIdle(Duration.ofSeconds(60), now + java.util.concurrent.TimeUnit.SECONDS.toNanos(61));
        assertThat(pool.idleCount()).isZero();
    }

    // ---- helpers ----

    private BackendPool pool(int maxConnections, int queueSize, Duration queueTimeout) {
        Backend backend = new Backend(new BackendConfig("db", new HostPort("127.0.0.1", 3306), BackendConfig.Role.PRIMARY,
                1, maxConnections));
        BackendPool pool = new BackendPool(backend, connector, queueSize, queueTimeout, clock);
        pools.add(pool);
        return pool;
    }

    private static Backend backendOf(BackendPool pool) {
        return pool.backend();
    }

    private static EventLoop loop(EmbeddedChannel channel) {
        return channel.eventLoop();
    }

    /** Gives the connection back and answers its reset as the captured server did. */
    static void giveBack(BackendPool pool, BackendConnection connection) {
        pool.release(connection);
        EmbeddedChannel channel = (EmbeddedChannel) connection.channel();
        assertThat(sent(connection)).as("a connection given back is reset, its character set set again")
                .containsExactly(Commands.COM_RESET_CONNECTION, Commands.COM_QUERY);
        channel.writeInbound(io.netty.buffer.Unpooled.wrappedBuffer(RESET_OK));
        channel.writeInbound(io.netty.buffer.Unpooled.wrappedBuffer(
                ServerPackets.afterResetAnswers(connection.identity().capabilities())));
    }

    /** The command bytes written to the connection's server since last asked, read and released. */
    static List<Integer> sent(BackendConnection connection) {
        EmbeddedChannel channel = (EmbeddedChannel) connection.channel();
        List<Integer> commands = new ArrayList<>();
        for (ByteBuf frame = channel.readOutbound(); frame != null; frame = channel.readOutbound()) {
            commands.add((int) frame.getUnsignedByte(frame.readerIndex() + Packet.HEADER_SIZE));
            frame.release();
        }
        return commands;
    }

    private void runTasks() {
        loopA.runPendingTasks();
        loopA.runScheduledPendingTasks();
        loopB.runPendingTasks();
        loopB.runScheduledPendingTasks();
    }
}
