package dev.sluice.proxy.mirror;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.checksum.Answer;
import dev.sluice.protocol.checksum.OrderBy;
import dev.sluice.proxy.probe.OwnConnection;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One connection to the shadow and the copies waiting for it, run one at a time on the mirror's
 * own event loop: the connection is brought to the copy's session state (schema, variables),
 * the statement runs, and its answer is compared with the client's. A copy the shadow does not
 * answer within the timeout fails and the connection is dropped; while the shadow cannot be
 * reached, copies fail at once and a new connection is tried at most once a second.
 */
final class ShadowLane {

    private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final ShadowTarget shadow;
    private final EventLoop loop;
    private final MirrorStats stats;
    private final ShadowProblems problems;
    private final long timeoutMillis;
    private final ConcurrentLinkedQueue<MirrorCopy> copies = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private MirrorQueue queue;

    // The rest on the loop only.
    private OwnConnection connection;
    private ShadowState connectionState;
    private boolean running;
    private boolean closed;
    private long downUntilNanos;
    private MirrorCopy current;
    private ScheduledFuture<?> timer;

    ShadowLane(ShadowTarget shadow, EventLoop loop, MirrorStats stats, ShadowProblems problems, long timeoutMillis) {
        this.shadow = shadow;
        this.loop = loop;
        this.stats = stats;
        this.problems = problems;
        this.timeoutMillis = timeoutMillis;
    }

    void queue(MirrorQueue owner) {
        this.queue = owner;
    }

    /** Any thread. */
    void add(MirrorCopy copy) {
        copies.add(copy);
        if (scheduled.compareAndSet(false, true)) {
            loop.execute(this::drain);
        }
    }

    /** Drops what waits and closes the connection. */
    void close() {
        loop.execute(() -> {
            closed = true;
            for (MirrorCopy copy = copies.poll(); copy != null; copy = copies.poll()) {
                queue.taken(copy);
            }
            dropConnection();
        });
    }

    private void drain() {
        scheduled.set(false);
        if (!running) {
            next();
        }
    }

    private void next() {
        MirrorCopy copy = closed ? null : copies.poll();
        if (copy == null) {
            running = false;
            return;
        }
        running = true;
        queue.taken(copy);
        current = copy;
        timer = loop.schedule(() -> timedOut(copy), timeoutMillis, TimeUnit.MILLISECONDS);
        if (connection != null && connection.isActive()) {
            setUp(copy);
        } else if (System.nanoTime() - downUntilNanos < 0) {
            fail(copy, problems.downReason());
        } else {
            connect(copy);
        }
    }

    private void connect(MirrorCopy copy) {
        shadow.connect(loop).addListener((Future<OwnConnection> done) -> {
            if (!done.isSuccess()) {
                downUntilNanos = System.nanoTime() + RETRY_NANOS;
                problems.down(done.cause().getMessage());
                if (current == copy) {
                    fail(copy, problems.downReason());
                }
                return;
            }
            if (current != copy || closed) {
                done.getNow().close();
                return;
            }
            problems.up();
            connection = done.getNow();
            connectionState = ShadowState.NONE;
            setUp(copy);
        });
    }

    /** Brings the connection to the copy's session state, one command at a time, then runs the copy. */
    private void setUp(MirrorCopy copy) {
        List<byte[]> steps = new ArrayList<>();
        List<Integer> commands = new ArrayList<>();
        if (copy.state.schema() != null && !Objects.equals(copy.state.schema(), connectionState.schema())) {
            commands.add(Commands.COM_INIT_DB);
            steps.add(copy.state.schema().getBytes(StandardCharsets.UTF_8));
        }
        for (String set : copy.state.setFrom(connectionState)) {
            commands.add(Commands.COM_QUERY);
            steps.add(set.getBytes(StandardCharsets.UTF_8));
        }
        step(copy, commands, steps, 0);
    }

    private void step(MirrorCopy copy, List<Integer> commands, List<byte[]> steps, int index) {
        if (index == steps.size()) {
            connectionState = copy.state;
            run(copy);
            return;
        }
        OwnConnection on = connection;
        on.send(commands.get(index), steps.get(index), new ShadowAnswer(on.capabilities())).addListener(
                (Future<Answer> done) -> {
                    if (current != copy) {
                        return;
                    }
                    if (!done.isSuccess()) {
                        lost(copy, done.cause().getMessage());
                    } else if (done.getNow().errorCode() != 0) {
                        // Half set up: a fresh connection next time rather than one in a state not known.
                        dropConnection();
                        fail(copy, "setting the session up (" + new String(steps.get(index), StandardCharsets.UTF_8)
                                + "): " + done.getNow().errorCode() + " " + done.getNow().error());
                    } else {
                        step(copy, commands, steps, index + 1);
                    }
                });
    }

    private void run(MirrorCopy copy) {
        OwnConnection on = connection;
        long start = System.nanoTime();
        on.send(Commands.COM_QUERY, copy.sql, new ShadowAnswer(on.capabilities())).addListener((Future<Answer> done) -> {
            if (current != copy) {
                return;
            }
            if (!done.isSuccess()) {
                lost(copy, done.cause().getMessage());
                return;
            }
            Answer answer = done.getNow();
            String difference = copy.clientAnswer.differenceFrom(answer, OrderBy.atTopLevel(copy.text()), "client",
                    "shadow");
            stats.compared(copy, System.nanoTime() - start, difference, answer.errorCode() != 0);
            finish();
        });
    }

    private void timedOut(MirrorCopy copy) {
        if (current != copy) {
            return;
        }
        // The statement may still run there; its connection goes with it, so the next copy does not wait behind it.
        dropConnection();
        fail(copy, "no answer within " + timeoutMillis + " ms (mirror.timeout)");
    }

    private void lost(MirrorCopy copy, String reason) {
        dropConnection();
        fail(copy, reason);
    }

    private void fail(MirrorCopy copy, String reason) {
        stats.failed(copy, reason);
        problems.failed(reason);
        finish();
    }

    private void finish() {
        current = null;
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        // A task, not a call: copies failing at once while the shadow is down would nest without end.
        loop.execute(this::next);
    }

    private void dropConnection() {
        if (connection != null) {
            connection.close();
            connection = null;
        }
        connectionState = null;
    }
}
