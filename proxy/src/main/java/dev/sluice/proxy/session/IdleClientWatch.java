package dev.sluice.proxy.session;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * client_idle (MySQL's wait_timeout) for one session: one task on the session's event loop, due
 * when the client will have sent nothing for that long. It replaces Netty's IdleStateHandler, whose
 * handler and pipeline context cost each session 176 bytes more and every read a pass through one
 * more handler; only reads are watched, as there.
 */
final class IdleClientWatch implements Runnable {

    private final EventExecutor loop;
    private final long idleNanos;
    /** Ends the session if nothing of its is out, and says whether it did. */
    private final BooleanSupplier endIfIdle;
    private long lastRead;
    private ScheduledFuture<?> due;

    private IdleClientWatch(EventExecutor loop, Duration idle, BooleanSupplier endIfIdle) {
        this.loop = loop;
        this.idleNanos = idle.toNanos();
        this.endIfIdle = endIfIdle;
        this.lastRead = loop.ticker().nanoTime();
    }

    /** Starts watching from now; call on {@code loop}. */
    static IdleClientWatch start(EventExecutor loop, Duration idle, BooleanSupplier endIfIdle) {
        IdleClientWatch watch = new IdleClientWatch(loop, idle, endIfIdle);
        watch.scheduleIn(watch.idleNanos);
        return watch;
    }

    /** The client sent something. */
    void read() {
        lastRead = loop.ticker().nanoTime();
    }

    /** The session ended: the task goes, so the loop's queue does not hold the session for client_idle. */
    void stop() {
        if (due != null) {
            due.cancel(false);
            due = null;
        }
    }

    @Override
    public void run() {
        if (due == null) {
            return;
        }
        long quiet = loop.ticker().nanoTime() - lastRead;
        if (quiet < idleNanos) {
            scheduleIn(idleNanos - quiet);
        } else if (endIfIdle.getAsBoolean()) {
            due = null;
        } else {
            // A statement is out: the client may send nothing until it ends; look again a period later.
            scheduleIn(idleNanos);
        }
    }

    private void scheduleIn(long nanos) {
        due = loop.schedule(this, nanos, TimeUnit.NANOSECONDS);
    }
}
