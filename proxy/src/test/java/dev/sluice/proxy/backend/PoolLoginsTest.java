package dev.sluice.proxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.protocol.Capabilities;
import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Acquisitions that find no idle connection below the cap: the first connection to come on their
 * loop serves the oldest, and logins start only for those no login covers, a few at a time.
 */
class PoolLoginsTest {

    private static final LoginRequest APP = new LoginRequest("app", "secret".getBytes(StandardCharsets.UTF_8),
            Capabilities.CLIENT_PROTOCOL_41, 45, null);

    private static final LoginRequest APP_IN_SHOP = new LoginRequest("app", "secret".getBytes(StandardCharsets.UTF_8),
            Capabilities.CLIENT_PROTOCOL_41, 45, "shop");

    private final MockTicker clock = Ticker.newMockTicker();
    private final EmbeddedChannel loopA = EmbeddedChannel.builder().ticker(clock).build();
    private final FakeConnector connector = new FakeConnector();
    private final BackendPool pool = new BackendPool(new Backend(new BackendConfig("db",
            new HostPort("127.0.0.1", 3306), BackendConfig.Role.PRIMARY, 1, 1000)), connector, 10,
            Duration.ofSeconds(5), clock);

    @AfterEach
    void releaseEverything() {
        pool.close();
        loopA.runPendingTasks();
        for (EmbeddedChannel channel : connector.channels()) {
            channel.finishAndReleaseAll();
        }
        loopA.finishAndReleaseAll();
    }

    @Test
    void aBurstOnOneLoopHasAFewLoginsUnderWayAtOnce() {
        List<Future<BackendConnection>> burst = acquisitions(3 * PoolLogins.PER_LOOP);
        assertThat(connector.pending()).isEqualTo(PoolLogins.PER_LOOP);
        assertThat(pool.waiting()).as("what the stats show waiting").isEqualTo(3 * PoolLogins.PER_LOOP);

        BackendConnection first = connector.complete();
        assertThat(burst.get(0).getNow()).as("the oldest gets the first connection").isSameAs(first);
        assertThat(connector.pending()).as("another login for those still uncovered").isEqualTo(PoolLogins.PER_LOOP);
        assertThat(burst.subList(1, burst.size())).noneMatch(Future::isDone);
        assertThat(pool.waiting()).isEqualTo(3 * PoolLogins.PER_LOOP - 1);
    }

    @Test
    void aConnectionGivenBackServesAWaitingAcquisitionBeforeItsLoginEnds() {
        Future<BackendConnection> holder = pool.acquire(APP, loop());
        BackendConnection connection = connector.complete();
        assertThat(holder.getNow()).isSameAs(connection);

        Future<BackendConnection> waiting = pool.acquire(APP, loop());
        assertThat(connector.pending()).isEqualTo(1);
        BackendPoolTest.giveBack(pool, connection);
        assertThat(waiting.getNow()).as("the connection given back, not the login's").isSameAs(connection);

        BackendConnection loggedIn = connector.complete();
        assertThat(pool.idleCount()).as("the login no one waits for any more idles").isEqualTo(1);
        assertThat(pool.takeIdle(APP, loop(), null)).isSameAs(loggedIn);
        assertThat(pool.loginCount()).isEqualTo(2);
    }

    @Test
    void aBackendThatCannotBeReachedFailsEveryAcquisitionWaitingForIt() {
        List<Future<BackendConnection>> burst = acquisitions(3);
        connector.fail();
        assertThat(burst).allSatisfy(each -> assertThat(each.cause()).isInstanceOf(BackendLoginException.class));
        assertThat(pool.waiting()).isZero();
        assertThat(pool.backend().openConnections().get()).as("the failed login's slot").isEqualTo(2);

        connector.complete();
        connector.complete();
        assertThat(pool.idleCount()).as("logins that end after no one waits idle").isEqualTo(2);
    }

    @Test
    void aServersRefusalFailsOnlyTheAcquisitionTheLoginWasFor() {
        List<Future<BackendConnection>> burst = acquisitions(2);
        connector.refuse();
        assertThat(burst.get(0).cause()).isInstanceOf(BackendLoginException.class)
                .hasMessageContaining("Access denied");
        assertThat(burst.get(1).isDone()).isFalse();

        BackendConnection connection = connector.complete();
        assertThat(burst.get(1).getNow()).isSameAs(connection);
    }

    @Test
    void aCancelledAcquisitionIsNotServed() {
        List<Future<BackendConnection>> burst = acquisitions(2);
        burst.get(0).cancel(false);
        BackendConnection first = connector.complete();
        assertThat(burst.get(1).getNow()).isSameAs(first);
        connector.complete();
        assertThat(pool.idleCount()).isEqualTo(1);
    }

    @Test
    void aSessionAskingForNoSchemaIsNotHandedAConnectionWithOne() {
        pool.acquire(APP_IN_SHOP, loop());
        BackendConnection inShop = connector.complete();
        Future<BackendConnection> noSchema = pool.acquire(APP, loop());

        BackendPoolTest.giveBack(pool, inShop);
        assertThat(noSchema.isDone()).as("a schema cannot be unselected").isFalse();
        assertThat(pool.idleCount()).isEqualTo(1);
        BackendConnection own = connector.complete();
        assertThat(noSchema.getNow()).isSameAs(own);
        assertThat(own.schema()).isNull();
    }

    @Test
    void closingFailsTheAcquisitionsWaiting() {
        List<Future<BackendConnection>> burst = acquisitions(2);
        pool.close();
        loopA.runPendingTasks();
        assertThat(burst).allSatisfy(each -> assertThat(each.cause()).isInstanceOf(BackendLoginException.class)
                .hasMessageContaining("shutting down"));
        assertThat(pool.waiting()).isZero();
    }

    private List<Future<BackendConnection>> acquisitions(int count) {
        List<Future<BackendConnection>> acquired = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            acquired.add(pool.acquire(APP, loop()));
        }
        return acquired;
    }

    private EventLoop loop() {
        return loopA.eventLoop();
    }
}
