package dev.sluice.slap;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;

/**
 * mysqlslap's run_scheduler: every client thread (virtual, or platform for few clients, see
 * {@link ClientThreads}) is started and parked first,
 * the clock starts when they are released together, and stops when the last one has ended
 * (connecting, the final COMMIT and closing are inside the time, as in mysqlslap).
 */
final class ClientPhase {

    /** Sees the live counters while a phase runs (interval lines, progress). */
    interface Observer {
        void started(LiveCounters counters, long startNanos);

        void ended();
    }

    static final Observer NO_OBSERVER = new Observer() {
        @Override
        public void started(LiveCounters counters, long startNanos) {
        }

        @Override
        public void ended() {
        }
    };

    private ClientPhase() {
    }

    static PhaseResult run(PhaseContext context, int clients, long timeSeconds, double rate, boolean virtual,
                           Observer observer) throws InterruptedException {
        LiveCounters counters = new LiveCounters();
        PhaseControl control = new PhaseControl();
        if (context.onlyPrint()) {
            // Printed one client after the other: mysqlslap's threads interleave their lines.
            control.start(System.nanoTime(), 0, 0);
            for (int i = 0; i < clients; i++) {
                new ClientLoop(context, control, counters).run();
            }
            return result(0, counters, control);
        }
        CountDownLatch ready = new CountDownLatch(clients);
        StartGate go = new StartGate();
        ThreadFactory factory = virtual ? Thread.ofVirtual().name("slap-client-", 1).factory()
                : Thread.ofPlatform().name("slap-client-", 1).daemon().factory();
        List<Thread> threads = new ArrayList<>(clients);
        List<ClientLoop> loops = new ArrayList<>(clients);
        for (int i = 0; i < clients; i++) {
            ClientLoop loop = new ClientLoop(context, control, counters);
            loops.add(loop);
            Thread thread = factory.newThread(() -> {
                ready.countDown();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                loop.run();
            });
            thread.setUncaughtExceptionHandler((t, e) -> counters.errors.add("client",
                    e.getClass().getSimpleName() + ": " + e.getMessage()));
            threads.add(thread);
            thread.start();
        }
        ready.await();
        long start = System.nanoTime();
        control.start(start, timeSeconds, rate);
        observer.started(counters, start);
        go.open(threads);
        try (StallWatch watch = StallWatch.start(loops, context.connector().queryTimeoutSeconds())) {
            for (Thread thread : threads) {
                thread.join();
            }
        } catch (InterruptedException e) {
            control.fail("interrupted");
            threads.forEach(Thread::interrupt);
            throw e;
        } finally {
            observer.ended();
        }
        return result(System.nanoTime() - start, counters, control);
    }

    private static PhaseResult result(long nanos, LiveCounters counters, PhaseControl control) {
        return new PhaseResult(nanos / 1_000_000, nanos, counters.queries(), counters.reads.sum(),
                counters.writes.sum(), counters.others.sum(), counters.commits.sum(), counters.reconnects.sum(),
                counters.errors.snapshot(), counters.connectErrors.snapshot(), counters.totalLatency(),
                control.fatalMessage());
    }
}
