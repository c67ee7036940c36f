package dev.sluice.proxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** Two proxies in one JVM: each one's event loops count only their own connections' commands. */
class CommandsInFlightTest {

    @Test
    void eachProxyCountsTheCommandsOfItsOwnLoops() throws Exception {
        CommandsInFlight first = new CommandsInFlight();
        CommandsInFlight second = new CommandsInFlight();
        ExecutorService firstLoop = Executors.newSingleThreadExecutor(new DefaultThreadFactory("first"));
        ExecutorService secondLoop = Executors.newSingleThreadExecutor(new DefaultThreadFactory("second"));
        try {
            firstLoop.submit(first::countOnThisThread).get();
            secondLoop.submit(second::countOnThisThread).get();
            firstLoop.submit(() -> {
                CommandsInFlight.sent();
                CommandsInFlight.sent();
            }).get();
            secondLoop.submit(CommandsInFlight::sent).get();
            assertThat(first.count()).isEqualTo(2);
            assertThat(second.count()).isEqualTo(1);
            firstLoop.submit(() -> CommandsInFlight.ended(2)).get();
            assertThat(first.count()).isZero();
            assertThat(second.count()).isEqualTo(1);
            // A thread no loop named (a test's own, say) counts nowhere.
            CommandsInFlight.sent();
            assertThat(first.count() + second.count()).isEqualTo(1);
        } finally {
            firstLoop.shutdownNow();
            secondLoop.shutdownNow();
        }
    }
}
