package dev.sluice.slap;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class StartGateTest {

    @Test
    void holdsEveryClientUntilOpenedThenReleasesThemAll() throws InterruptedException {
        StartGate gate = new StartGate();
        AtomicInteger passed = new AtomicInteger();
        CountDownLatch waiting = new CountDownLatch(40);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            threads.add(Thread.ofPlatform().start(() -> {
                waiting.countDown();
                try {
                    gate.await();
                    passed.incrementAndGet();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        assertThat(waiting.await(10, TimeUnit.SECONDS)).isTrue();
        // Every client parked in the gate: none can have passed it.
        await().atMost(Duration.ofSeconds(10)).until(() -> threads.stream().allMatch(StartGateTest::parked));
        assertThat(passed).hasValue(0);
        gate.open(threads);
        for (Thread thread : threads) {
            thread.join(10_000);
        }
        assertThat(passed).hasValue(40);
    }

    @Test
    void aClientThatComesAfterTheOpeningPassesAndOnesNotListedAreNotNeeded() throws InterruptedException {
        StartGate gate = new StartGate();
        gate.open(List.of());
        Thread late = Thread.ofVirtual().start(() -> {
            try {
                gate.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(late.join(Duration.ofSeconds(10))).isTrue();
    }

    private static boolean parked(Thread thread) {
        return thread.getState() == Thread.State.WAITING;
    }

    @Test
    void anInterruptedClientStopsWaiting() throws InterruptedException {
        StartGate gate = new StartGate();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                gate.await();
            } catch (InterruptedException e) {
                thrown.set(e);
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> parked(waiter));
        waiter.interrupt();
        waiter.join(10_000);
        assertThat(waiter.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    }
}
