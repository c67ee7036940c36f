package dev.sluice.proxy.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The watch on an embedded loop whose clock the test moves. */
class IdleClientWatchTest {

    private final EmbeddedChannel loop = new EmbeddedChannel();
    private boolean busy;
    private int asked;

    @AfterEach
    void close() {
        loop.finishAndReleaseAll();
    }

    private IdleClientWatch watch() {
        loop.freezeTime();
        return IdleClientWatch.start(loop.eventLoop(), Duration.ofMinutes(10), () -> {
            asked++;
            return !busy;
        });
    }

    @Test
    void aReadPushesTheDeadlineBack() {
        IdleClientWatch watch = watch();
        loop.advanceTimeBy(9, TimeUnit.MINUTES);
        watch.read();
        loop.advanceTimeBy(9, TimeUnit.MINUTES);
        loop.runScheduledPendingTasks();
        assertThat(asked).as("18 minutes in, 9 since the last read").isZero();

        loop.advanceTimeBy(1, TimeUnit.MINUTES);
        loop.runScheduledPendingTasks();
        assertThat(asked).isOne();
        assertThat(loop.runScheduledPendingTasks()).as("the session ended: nothing is due any more").isEqualTo(-1);
    }

    @Test
    void aBusySessionIsAskedAgainAPeriodLater() {
        watch();
        busy = true;
        loop.advanceTimeBy(10, TimeUnit.MINUTES);
        loop.runScheduledPendingTasks();
        assertThat(asked).isOne();
        assertThat(loop.runScheduledPendingTasks()).isEqualTo(TimeUnit.MINUTES.toNanos(10));

        busy = false;
        loop.advanceTimeBy(10, TimeUnit.MINUTES);
        loop.runScheduledPendingTasks();
        assertThat(asked).isEqualTo(2);
        assertThat(loop.runScheduledPendingTasks()).isEqualTo(-1);
    }

    @Test
    void aStoppedWatchLeavesNothingOnTheLoop() {
        IdleClientWatch watch = watch();
        assertThat(loop.runScheduledPendingTasks()).isEqualTo(TimeUnit.MINUTES.toNanos(10));
        watch.stop();
        assertThat(loop.runScheduledPendingTasks()).isEqualTo(-1);
        loop.advanceTimeBy(1, TimeUnit.HOURS);
        loop.runScheduledPendingTasks();
        assertThat(asked).isZero();
    }
}
