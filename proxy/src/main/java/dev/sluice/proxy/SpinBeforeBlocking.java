package dev.sluice.proxy;

import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;

/**
 * An event loop's I/O wait (epoll or io_uring) that, while a lone client is talking, polls for a
 * short while before it blocks.
 *
 * <p>A lone client's statements are a serial chain (client, proxy, backend, proxy, client) in
 * which the proxy waits tens of microseconds per hop. Blocking at once costs a sleep and a wake-up
 * per hop, and on a virtual machine waking an idle vCPU costs more than the proxy's own work, so
 * the loop polls through the gap instead. It does so only while at most one command is out to the
 * backends, where the chain leaves the other cores idle, and only one loop at a time: once there is
 * concurrency the cores have real work, every cycle spent polling would be taken from the clients
 * and backends, and the loops block at once. Past the budget, or as soon as a task is queued, the
 * loop goes on as Netty's would, so an idle proxy sleeps. What counts as one proxy's (its commands
 * in flight, the one loop spinning) belongs to one factory: one event loop group.
 */
final class SpinBeforeBlocking implements IoHandler {

    private final IoHandler io;
    private final long budgetNanos;
    private final IntSupplier commandsInFlight;
    /** Shared by the loops of one group: at most one of them spins. */
    private final AtomicBoolean spinning;
    private final NonBlocking nonBlocking = new NonBlocking();

    private SpinBeforeBlocking(IoHandler io, long budgetNanos, IntSupplier commandsInFlight, AtomicBoolean spinning) {
        this.io = io;
        this.budgetNanos = budgetNanos;
        this.commandsInFlight = commandsInFlight;
        this.spinning = spinning;
    }

    /** The handlers of one proxy's event loops, polling while that proxy has at most one command in flight. */
    static IoHandlerFactory around(IoHandlerFactory io, long budgetNanos, IntSupplier commandsInFlight) {
        if (budgetNanos <= 0) {
            return io;
        }
        AtomicBoolean spinning = new AtomicBoolean();
        return executor -> new SpinBeforeBlocking(io.newHandler(executor), budgetNanos, commandsInFlight, spinning);
    }

    @Override
    public int run(IoHandlerContext context) {
        if (!context.canBlock() || commandsInFlight.getAsInt() > 1 || !spinning.compareAndSet(false, true)) {
            return io.run(context);
        }
        try {
            nonBlocking.context = context;
            long deadline = System.nanoTime() + budgetNanos;
            do {
                int handled = io.run(nonBlocking);
                if (handled > 0) {
                    return handled;
                }
                Thread.onSpinWait();
            } while (System.nanoTime() - deadline < 0 && context.canBlock() && commandsInFlight.getAsInt() <= 1);
        } finally {
            spinning.set(false);
        }
        return io.run(context);
    }

    @Override
    public void initialize() {
        io.initialize();
    }

    @Override
    public void prepareToDestroy() {
        io.prepareToDestroy();
    }

    @Override
    public void destroy() {
        io.destroy();
    }

    @Override
    public IoRegistration register(IoHandle handle) throws Exception {
        return io.register(handle);
    }

    @Override
    public void wakeup() {
        io.wakeup();
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return io.isCompatible(handleType);
    }

    /** The loop's context, except that the handler may not block in it. */
    private static final class NonBlocking implements IoHandlerContext {

        private IoHandlerContext context;

        @Override
        public boolean canBlock() {
            return false;
        }

        @Override
        public long delayNanos(long currentTimeNanos) {
            return context.delayNanos(currentTimeNanos);
        }

        @Override
        public long deadlineNanos() {
            return context.deadlineNanos();
        }
    }
}
