package dev.sluice.slap;

import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Abandons queries a stalled server never answers (kill -STOP, a lost network path): once a
 * second it looks at every client of a phase and closes the connection of one that has waited
 * longer than --query-timeout, so its blocked read ends. A socket timeout would do the same, but
 * makes each of Connector/J's reads a non-blocking read and a poll, which a load client pays on
 * every query.
 */
final class StallWatch implements AutoCloseable {

    private final ScheduledExecutorService timer;

    private StallWatch(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /** Watches {@code clients}; none when {@code timeoutSeconds} is 0. */
    static StallWatch start(List<ClientLoop> clients, int timeoutSeconds) {
        if (timeoutSeconds <= 0) {
            return new StallWatch(null);
        }
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("slap-stall-watch").daemon().factory());
        long timeoutNanos = TimeUnit.SECONDS.toNanos(timeoutSeconds);
        long every = Math.min(1000, TimeUnit.SECONDS.toMillis(timeoutSeconds));
        timer.scheduleWithFixedDelay(() -> {
            long now = System.nanoTime();
            for (ClientLoop client : clients) {
                client.abandonIfStalled(now, timeoutNanos);
            }
        }, every, every, TimeUnit.MILLISECONDS);
        return new StallWatch(timer);
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
