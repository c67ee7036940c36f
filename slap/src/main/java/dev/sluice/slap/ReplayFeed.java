package dev.sluice.slap;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The replay's second pass: one thread reads the capture again and hands each statement to its
 * session's inbox, staying ahead of the clients by a little only. With a speed, it reads a
 * statement {@link #LOOKAHEAD_NANOS} before it is due; at max speed, at most {@link #MAX_AHEAD}
 * statements of running sessions wait in inboxes. Statements of a session that has not started
 * yet (all clients busy with --concurrency N) are queued regardless: holding them back could
 * stall the running sessions whose statements come after them in the file.
 */
final class ReplayFeed implements Runnable {

    static final long LOOKAHEAD_NANOS = TimeUnit.SECONDS.toNanos(1);
    static final int MAX_AHEAD = 100_000;

    /** One session's statements not yet played. */
    static final class Inbox {
        private final BlockingQueue<Item> items = new LinkedBlockingQueue<>();
        private volatile boolean started;

        /** From now on this session's statements count against {@link #MAX_AHEAD}. */
        void start() {
            started = true;
        }
    }

    /**
     * A statement handed to its session.
     *
     * @param endedBefore statements (of any session) that had ended in the capture when it started
     */
    record Fed(CapturedEvent event, long endedBefore) {
    }

    private record Item(Fed fed, boolean counted) {
    }

    private final Path file;
    private final double speed;
    private final long captureStartMicros;
    private final long replayStartNanos;
    private final Map<Long, Inbox> inboxes = new HashMap<>();
    private final EndedBefore endedBefore = new EndedBefore();
    private final Semaphore ahead;
    private volatile String failure;
    private volatile boolean finished;

    ReplayFeed(Path file, List<ReplayPlan.Session> sessions, double speed, long captureStartMicros,
               long replayStartNanos, int maxAhead) {
        this.file = file;
        this.speed = speed;
        this.captureStartMicros = captureStartMicros;
        this.replayStartNanos = replayStartNanos;
        this.ahead = new Semaphore(maxAhead);
        sessions.forEach(s -> inboxes.put(s.id, new Inbox()));
    }

    Inbox inbox(long session) {
        return inboxes.get(session);
    }

    @Override
    public void run() {
        try {
            CaptureFile.forEach(file, this::hand);
        } catch (RuntimeException e) {
            failure = e.getMessage();
        } finally {
            finished = true;
        }
    }

    private void hand(CapturedEvent event) {
        if (speed != ReplayOptions.MAX_SPEED) {
            long due = replayStartNanos + (long) ((event.timeMicros() - captureStartMicros) * 1000 / speed);
            long wait;
            while ((wait = due - LOOKAHEAD_NANOS - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
                if (Thread.currentThread().isInterrupted()) {
                    throw new IllegalStateException("the replay ended before the capture was read");
                }
            }
        }
        Inbox inbox = inboxes.get(event.session());
        if (inbox == null) {
            throw new IllegalStateException(file + " changed since it was read: session " + event.session() + " is new");
        }
        boolean counted = inbox.started;
        if (counted) {
            try {
                ahead.acquire();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("the replay ended before the capture was read", e);
            }
        }
        Fed fed = new Fed(event, endedBefore.at(event.timeMicros()));
        endedBefore.add(event);
        inbox.items.add(new Item(fed, counted));
    }

    /**
     * The session's next statement, waiting for the reader; null when the reader has ended without
     * one (the capture could not be read again, or changed: {@link #failure()}).
     */
    Fed next(Inbox inbox) throws InterruptedException {
        while (true) {
            boolean readerDone = finished;
            Item item = inbox.items.poll(readerDone ? 0 : 100, TimeUnit.MILLISECONDS);
            if (item != null) {
                if (item.counted) {
                    ahead.release();
                }
                return item.fed;
            }
            if (readerDone) {
                return null;
            }
        }
    }

    String failure() {
        return failure != null ? failure : file + " holds fewer statements than when it was first read";
    }
}
