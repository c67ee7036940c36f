package dev.sluice.slap;

import org.HdrHistogram.Histogram;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Prints sysbench-style interval lines ({@code --report-interval}) on stdout, or a progress line
 * that rewrites itself on stderr when stderr is a terminal. Runs on its own platform thread so a
 * busy client pool cannot delay its ticks.
 */
final class IntervalReporter implements ClientPhase.Observer {

    private final PrintWriter out;
    private final PrintWriter err;
    private final long intervalSeconds;
    private final boolean progress;
    private final boolean countCommits;
    private String label = "";
    private CountDownLatch stop;
    private Thread thread;
    private boolean progressShown;

    /** {@code intervalSeconds} 0: no interval lines; {@code progress}: the terminal line instead. */
    IntervalReporter(PrintWriter out, PrintWriter err, long intervalSeconds, boolean progress, boolean countCommits) {
        this.out = out;
        this.err = err;
        this.intervalSeconds = intervalSeconds;
        this.progress = progress && intervalSeconds == 0;
        this.countCommits = countCommits;
    }

    /** What the progress line says the phase is (clients, iteration). */
    void label(String text) {
        label = text;
    }

    @Override
    public void started(LiveCounters counters, long startNanos) {
        if (intervalSeconds == 0 && !progress) {
            return;
        }
        stop = new CountDownLatch(1);
        long tickNanos = TimeUnit.SECONDS.toNanos(intervalSeconds > 0 ? intervalSeconds : 1);
        thread = Thread.ofPlatform().daemon().name("slap-report").start(() -> tick(counters, startNanos, tickNanos));
    }

    @Override
    public void ended() {
        if (thread == null) {
            return;
        }
        stop.countDown();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        thread = null;
        if (progressShown) {
            err.print("\r\033[K");
            err.flush();
            progressShown = false;
        }
    }

    private void tick(LiveCounters counters, long startNanos, long tickNanos) {
        Snapshot last = new Snapshot(startNanos, 0, 0, 0, countCommits ? 0 : -1, 0, 0);
        long next = startNanos + tickNanos;
        try {
            while (!stop.await(Math.max(0, next - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                Snapshot now = Snapshot.of(counters, countCommits ? counters.commits.sum() : -1);
                double seconds = (now.at - last.at) / 1e9;
                Histogram interval = counters.drainInterval();
                if (intervalSeconds > 0) {
                    out.print(intervalLine((next - startNanos) / 1_000_000_000L, counters.running.get(), now, last,
                            seconds, interval) + "\n");
                    out.flush();
                } else {
                    err.print(String.format(Locale.ROOT, "\rslap: %s %ds, %d queries, %.0f q/s, %d errors\033[K",
                            label, (now.at - startNanos) / 1_000_000_000L, now.queries(),
                            (now.queries() - last.queries()) / seconds, now.errors));
                    err.flush();
                    progressShown = true;
                }
                last = now;
                next += tickNanos;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String intervalLine(long elapsedSeconds, int threads, Snapshot now, Snapshot last, double seconds,
                               Histogram interval) {
        double reads = (now.reads - last.reads) / seconds;
        double writes = (now.writes - last.writes) / seconds;
        double others = (now.others - last.others) / seconds;
        double qps = reads + writes + others;
        double tps = now.commits >= 0 ? (now.commits - last.commits) / seconds : qps;
        double p95 = interval.getTotalCount() == 0 ? 0 : interval.getValueAtPercentile(95) / 1000.0;
        return String.format(Locale.ROOT,
                "[ %ds ] thds: %d tps: %.2f qps: %.2f (r/w/o: %.2f/%.2f/%.2f) lat (ms,95%%): %.2f err/s: %.2f reconn/s: %.2f",
                elapsedSeconds, threads, tps, qps, reads, writes, others, p95,
                (now.errors - last.errors) / seconds, (now.reconnects - last.reconnects) / seconds);
    }

    /** Counter values at one instant; {@code commits} is -1 when transactions are not counted. */
    record Snapshot(long at, long reads, long writes, long others, long commits, long errors, long reconnects) {

        static Snapshot of(LiveCounters counters, long commits) {
            return new Snapshot(System.nanoTime(), counters.reads.sum(), counters.writes.sum(), counters.others.sum(),
                    commits, counters.errors.total() + counters.connectErrors.total(), counters.reconnects.sum());
        }

        long queries() {
            return reads + writes + others;
        }
    }
}
