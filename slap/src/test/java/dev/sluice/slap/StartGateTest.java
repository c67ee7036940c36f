package dev.sluice.slap;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

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
        Thread.sleep(100);
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
        assertThat(late.join(java.time.Duration.ofSeconds(10))).isTrue();
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
        Thread.sleep(50);
        waiter.interrupt();
        waiter.join(10_000);
        assertThat(waiter.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    }
}
