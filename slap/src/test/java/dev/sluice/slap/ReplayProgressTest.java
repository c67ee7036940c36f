package dev.sluice.slap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class ReplayProgressTest {

    private final ReplayProgress progress = new ReplayProgress();

    @Test
    void aWaiterGoesOnWhenTheCountIsReached() throws Exception {
        CompletableFuture<ReplayProgress.Stall> waiter = CompletableFuture.supplyAsync(this::awaitTwo);
        progress.took();
        progress.took();

        assertThat(waiter.get(5, TimeUnit.SECONDS)).isEqualTo(ReplayProgress.Stall.NONE);
    }

    @Test
    void aStatementRunningFarLongerThanCapturedLetsTheWaitersGoOnBeforeTheStallTimeout() throws Exception {
        Object lockedSession = new Object();
        progress.playing(lockedSession, 10);
        long begin = System.nanoTime();

        ReplayProgress.Stall stall = awaitTwo();

        assertThat(stall).isEqualTo(ReplayProgress.Stall.OVERDUE);
        assertThat(System.nanoTime() - begin).isLessThan(ReplayProgress.STALL_NANOS);
    }

    @Test
    void aStatementWithinItsCapturedTimeIsWaitedFor() throws Exception {
        Object slowButOnTime = new Object();
        progress.playing(slowButOnTime, TimeUnit.SECONDS.toMicros(60));
        CompletableFuture<ReplayProgress.Stall> waiter = CompletableFuture.supplyAsync(this::awaitTwo);
        assertThatThrownBy(() -> waiter.get(300, TimeUnit.MILLISECONDS)).as("still waiting")
                .isInstanceOf(TimeoutException.class);

        progress.played(slowButOnTime);
        progress.took();
        progress.took();

        assertThat(waiter.get(5, TimeUnit.SECONDS)).isEqualTo(ReplayProgress.Stall.NONE);
    }

    private ReplayProgress.Stall awaitTwo() {
        try {
            return progress.awaitTaken(2);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
