package dev.sluice.slap;

import org.HdrHistogram.Histogram;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Prints sysbench-style interval lines ({@code --report-interval}) on stdout, or a progress line
 * that rewrites itself on stderr when stderr is a terminal, and keeps each interval's figures for
 * {@code --report-html} (every second when no interval is given). Runs on its own platform thread
 * so a busy client pool cannot delay its ticks.
 */
final class IntervalReporter implements ClientPhase.Observer {

    private final PrintWriter out;
    private final PrintWriter err;
    private final long intervalSeconds;
    private final boolean progress;
    private final boolean countCommits;
    private final boolean record;
    private String label = "";
    private CountDownLatch stop;
    private Thread thread;
    private boolean progressShown;
    /** Written by the ticking thread, read after it has been joined. */
    private final List<IntervalPoint> points = new ArrayList<>();
    private LiveCounters counters;
    private long startNanos;
    private Snapshot last;
    private Histogram lastInterval;
    private long lastStart;

    /**
     * {@code intervalSeconds} 0: no interval lines; {@code progress}: the terminal line instead;
     * {@code record}: keep the intervals' figures ({@link #takePoints()}).
     */
    IntervalReporter(PrintWriter out, PrintWriter err, long intervalSeconds, boolean progress, boolean countCommits,
                     boolean record) {
        this.out = out;
        this.err = err;
        this.intervalSeconds = intervalSeconds;
        this.progress = progress && intervalSeconds == 0;
        this.countCommits = countCommits;
        this.record = record;
    }

    /** What the progress line says the phase is (clients, iteration). */
    void label(String text) {
        label = text;
    }

    /** The intervals of the phase that ended last (none unless recording); the list starts empty again. */
    List<IntervalPoint> takePoints() {
        List<IntervalPoint> taken = List.copyOf(points);
        points.clear();
        return taken;
    }

    @Override
    public void started(LiveCounters counters, long startNanos) {
        if (intervalSeconds == 0 && !progress && !record) {
            return;
        }
        this.counters = counters;
        this.startNanos = startNanos;
        points.clear();
        last = new Snapshot(startNanos, 0, 0, 0, countCommits ? 0 : -1, 0, 0);
        lastInterval = null;
        stop = new CountDownLatch(1);
        long tickNanos = TimeUnit.SECONDS.toNanos(intervalSeconds > 0 ? intervalSeconds : 1);
        thread = Thread.ofPlatform().daemon().name("slap-report").start(() -> tick(tickNanos));
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
        if (record) {
            recordRest();
        }
        if (progressShown) {
            err.print("\r\033[K");
            err.flush();
            progressShown = false;
        }
    }

    private void tick(long tickNanos) {
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
                } else if (progress) {
                    err.print(String.format(Locale.ROOT, "\rslap: %s %ds, %d queries, %.0f q/s, %d errors\033[K",
                            label, (now.at - startNanos) / 1_000_000_000L, now.queries(),
                            (now.queries() - last.queries()) / seconds, now.errors));
                    err.flush();
                    progressShown = true;
                }
                if (record) {
                    points.add(point(now, interval));
                    lastInterval = interval;
                    lastStart = last.at;
                }
                last = now;
                next += tickNanos;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The time since the last tick, once the clients have ended. Shorter than half a tick, it joins
     * the last interval rather than stand alone: a few queries in a few milliseconds would draw as
     * a spike of throughput that never happened.
     */
    private void recordRest() {
        Snapshot now = Snapshot.of(counters, countCommits ? counters.commits.sum() : -1);
        Histogram rest = counters.drainInterval();
        long tickNanos = TimeUnit.SECONDS.toNanos(intervalSeconds > 0 ? intervalSeconds : 1);
        if (now.at - last.at < tickNanos / 2 && !points.isEmpty()) {
            IntervalPoint previous = points.removeLast();
            rest.add(lastInterval);
            points.add(point(now, rest, lastStart, previous.queries(), previous.errors()));
            return;
        }
        points.add(point(now, rest));
    }

    private IntervalPoint point(Snapshot now, Histogram interval) {
        return point(now, interval, last.at, 0, 0);
    }

    /** From {@code fromNanos} to now; {@code queries} and {@code errors} of an earlier part are added. */
    private IntervalPoint point(Snapshot now, Histogram interval, long fromNanos, long queries, long errors) {
        return new IntervalPoint((now.at - startNanos) / 1e9, (now.at - fromNanos) / 1e9,
                queries + now.queries() - last.queries(), errors + now.errors - last.errors,
                percentile(interval, 50), percentile(interval, 95), percentile(interval, 99));
    }

    private static double percentile(Histogram h, double p) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(p) / 1000.0;
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
