package dev.sluice.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoRegistration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SpinBeforeBlockingTest {

    /** Records whether each run might block; reports I/O on the run numbered {@code readyOnRun}. */
    private static final class RecordingIo implements IoHandler {
        final List<Boolean> mayBlock = new ArrayList<>();
        final int readyOnRun;

        RecordingIo(int readyOnRun) {
            this.readyOnRun = readyOnRun;
        }

        @Override
        public int run(IoHandlerContext context) {
            mayBlock.add(context.canBlock());
            return mayBlock.size() == readyOnRun ? 3 : 0;
        }

        @Override
        public IoRegistration register(IoHandle handle) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void wakeup() {
        }

        @Override
        public boolean isCompatible(Class<? extends IoHandle> handleType) {
            return true;
        }
    }

    private static IoHandlerContext context(boolean canBlock) {
        return new IoHandlerContext() {
            @Override
            public boolean canBlock() {
                return canBlock;
            }

            @Override
            public long delayNanos(long currentTimeNanos) {
                return TimeUnit.SECONDS.toNanos(1);
            }

            @Override
            public long deadlineNanos() {
                return -1;
            }
        };
    }

    private int commandsInFlight = 1;

    private IoHandler spinning(IoHandler io, long budgetNanos) {
        return SpinBeforeBlocking.around(executor -> io, budgetNanos, () -> commandsInFlight).newHandler(null);
    }

    @Test
    void pollsWithoutBlockingUntilIoIsReady() {
        RecordingIo io = new RecordingIo(5);
        int handled = spinning(io, TimeUnit.SECONDS.toNanos(10)).run(context(true));
        assertThat(handled).isEqualTo(3);
        assertThat(io.mayBlock).containsExactly(false, false, false, false, false);
    }

    @Test
    void blocksOnceTheBudgetIsSpent() {
        RecordingIo io = new RecordingIo(-1);
        long start = System.nanoTime();
        spinning(io, TimeUnit.MILLISECONDS.toNanos(2)).run(context(true));
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(2));
        assertThat(io.mayBlock).hasSizeGreaterThan(1).endsWith(true);
        assertThat(io.mayBlock.subList(0, io.mayBlock.size() - 1)).containsOnly(false);
    }

    @Test
    void aLoopWithTasksWaitingGoesStraightOn() {
        RecordingIo io = new RecordingIo(-1);
        spinning(io, TimeUnit.SECONDS.toNanos(10)).run(context(false));
        assertThat(io.mayBlock).containsExactly(false);
    }

    @Test
    void withConcurrentCommandsTheLoopBlocksAtOnce() {
        commandsInFlight = 2;
        RecordingIo io = new RecordingIo(-1);
        spinning(io, TimeUnit.SECONDS.toNanos(10)).run(context(true));
        assertThat(io.mayBlock).containsExactly(true);
    }

    @Test
    void aZeroBudgetLeavesTheHandlerAsItIs() {
        RecordingIo io = new RecordingIo(-1);
        assertThat(SpinBeforeBlocking.around(executor -> io, 0, () -> 0).newHandler(null)).isSameAs(io);
    }
}
